import type { ViewResponseAction } from "@slack/bolt";
import { type AppError, isAppError } from "../../errors.ts";

/** A view's blocks as the submission carries them. */
type Blocks = { type?: string; block_id?: string }[];

/**
 * Field errors as Slack takes them: every message on an input block the submitted view has. Slack
 * refuses the whole answer when one names a block the view does not have (a modal drawn without its
 * filter menus, an older version of it), so such a message goes on `fallback` if the view has it,
 * else on its first input, joined with what is already there.
 */
export function fieldErrors(
  errors: Record<string, string>,
  blocks: Blocks,
  fallback: string,
): Extract<ViewResponseAction, { response_action: "errors" }> {
  const inputs = new Set(
    blocks.filter((b) => b.type === undefined || b.type === "input").map((b) => b.block_id),
  );
  const first = blocks.find((b) => b.type === "input")?.block_id;
  const spare = blocks.length === 0 || inputs.has(fallback) ? fallback : (first ?? fallback);
  const out: Record<string, string> = {};
  for (const [block, message] of Object.entries(errors)) {
    const at = blocks.length === 0 || inputs.has(block) ? block : spare;
    out[at] = out[at] ? `${out[at]} ${message}` : message;
  }
  return { response_action: "errors", errors: out };
}

/**
 * The refusals a modal shows on its input rather than as "something went wrong" (`user_not_checked`:
 * a submitter nobody has looked up yet, who is asked to submit again).
 */
export function isFieldRefusal(err: unknown): err is AppError {
  return isAppError(err) && ["forbidden", "bad_request", "user_not_checked"].includes(err.code);
}
