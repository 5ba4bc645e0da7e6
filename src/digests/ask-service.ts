import { type Figure, figuresOf, withComparison } from "../ask/figures.ts";
import { exampleQuestions, type Prompt, suggestedPrompts } from "../ask/prompts.ts";
import { readQuestion } from "../ask/read.ts";
import type { AskContext, AskReading } from "../ask/types.ts";
import { type ComparePlan, comparePlan } from "../ask/understood.ts";
import type { Digest, DigestView } from "../insights/types.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { DigestRequest, DigestService } from "./digest-service.ts";

/**
 * A question in plain words answered with the slash command's own machinery: the same digest
 * service, the same name resolution, the same cache. The reading is the pure reader's; this module
 * only fetches what the reading asks for (one query, or two when the comparison needs it).
 */

export interface AskRequest {
  ref: WorkspaceRef;
  text: string;
  /** The asking person's zone. */
  tz: string;
  now: Date;
  /** The app's user id: its mention in the text is how a channel addresses it. */
  botUserId?: string;
  /** Longest question read whole (see AskContext.maxChars). */
  maxChars?: number;
}

export type AskAnswer =
  /** Not answerable as read (or a request for help): examples the reader does read. */
  | { kind: "examples"; reading: AskReading; examples: string[] }
  | {
      kind: "digest";
      reading: AskReading;
      view: DigestView;
      plan: ComparePlan;
      figures: Figure[];
      /** The compared period's digest, when it took a second query. */
      compared?: Digest;
    }
  | { kind: "export"; reading: AskReading; view: DigestView }
  /** A subscription or alert to confirm; nothing is created here. */
  | { kind: "proposal"; reading: AskReading };

type Digests = Pick<DigestService, "build" | "filterLists">;

/** The reader's context for a workspace: the account's lists (kept ones first), the person's clock and zone. */
export async function askContext(
  digests: Digests,
  req: Omit<AskRequest, "text">,
  kept: true | "only" = true,
): Promise<AskContext> {
  const lists = await digests.filterLists(req.ref, req.tz, req.now, { kept });
  return {
    now: req.now,
    tz: req.tz,
    assets: lists.assets ?? [],
    scanners: lists.scanners ?? [],
    botUserId: req.botUserId,
    ...(req.maxChars ? { maxChars: req.maxChars } : {}),
  };
}

/** Suggested prompts for the Messages tab from the lists at hand (never a query: it runs as the tab opens). */
export async function promptsFor(digests: Digests, req: Omit<AskRequest, "text">): Promise<Prompt[]> {
  return suggestedPrompts(await askContext(digests, req, "only"));
}

export async function answerQuestion(digests: Digests, req: AskRequest): Promise<AskAnswer> {
  const ctx = await askContext(digests, req);
  const reading = readQuestion(req.text, ctx);
  if (reading.problem || reading.intent === "help")
    return { kind: "examples", reading, examples: exampleQuestions(ctx) };
  if (reading.intent === "subscribe" || reading.intent === "alert") return { kind: "proposal", reading };
  const base: DigestRequest = {
    ref: req.ref,
    range: reading.range.spec,
    tz: req.tz,
    now: req.now,
    assetIds: reading.subjects.assets.map((a) => a.value),
    scannerIds: reading.subjects.scanners.map((s) => s.value),
    ...(reading.subjects.groups.length > 0 ? { assetGroups: reading.subjects.groups } : {}),
  };
  if (reading.intent === "export") return { kind: "export", reading, view: (await digests.build(base)).view };
  const plan = comparePlan(reading, req.tz);
  const [main, other] = await Promise.all([
    digests.build({
      ...base,
      ...(reading.intent === "drivers" ? { drivers: "required" as const } : {}),
      previousSeries: reading.intent === "trend" && plan.how === "previous",
      explainable: reading.intent !== "drivers",
    }),
    plan.how === "second_query"
      ? digests.build({ ...base, range: plan.from === plan.to ? plan.from : `${plan.from}..${plan.to}` })
      : Promise.resolve(undefined),
  ]);
  const compared = other?.view.digest;
  const view = compared ? withComparison(main.view, compared) : main.view;
  return {
    kind: "digest",
    reading,
    view,
    plan,
    figures: figuresOf(reading.metrics, main.view.digest, compared),
    ...(compared ? { compared } : {}),
  };
}
