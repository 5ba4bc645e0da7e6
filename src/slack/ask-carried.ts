import { type AdjustFields, decodeAdjust, keptAdjust } from "../ask/adjust.ts";
import { keptValue } from "../ask/kept.ts";
import { decodeProposal, keptProposal, type Proposal } from "../ask/proposal.ts";
import { AppError } from "../errors.ts";
import { DRAFT_TTL_MS, keepDraft, readDraft } from "../store/drafts.ts";
import type { RequestContext } from "./frame/index.ts";

/**
 * What the buttons of an answer carry: the form or the proposal itself when it fits a button's value,
 * else a kept draft's id. Either way the button asks the same question, with every name it had.
 */

type Ctx = Pick<RequestContext, "deps" | "ref">;

const DAYS = Math.round(DRAFT_TTL_MS / 86_400_000);

/** The button's value: `encoded.value`, or the id of a draft that keeps `encoded.keep`. */
export async function buttonValue(ctx: Ctx, encoded: { value: string } | { keep: string }): Promise<string> {
  if ("value" in encoded) return encoded.value;
  return keptValue(await keepDraft(ctx.deps, ctx.ref, encoded.keep));
}

async function kept(ctx: Ctx, id: string): Promise<string> {
  const text = await readDraft(ctx.deps, ctx.ref, id);
  if (text === null)
    throw new AppError(
      "bad_state",
      `This answer's buttons are kept for ${DAYS} days and these are older: ask the question again.`,
    );
  return text;
}

/** The Adjust form an Adjust button carried. */
export async function carriedAdjust(ctx: Ctx, raw: unknown): Promise<AdjustFields> {
  const c = decodeAdjust(raw);
  return c.kind === "fields" ? c.fields : keptAdjust(await kept(ctx, c.id));
}

/** The proposal a Confirm or "Change first…" button carried. */
export async function carriedProposal(ctx: Ctx, raw: unknown): Promise<Proposal> {
  const c = decodeProposal(raw);
  return c.kind === "proposal" ? c.proposal : keptProposal(await kept(ctx, c.id));
}
