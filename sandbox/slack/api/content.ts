import { type CheckOptions, checkMessageBlocks, checkViewPayload, SLACK_LIMITS } from "../blockkit/index.ts";
import { slackFileReady } from "../file-status.ts";
import { type Args, isRecord, json, slackError, str } from "./args.ts";
import { type ApiContext, authed } from "./context.ts";

export interface MessageContent {
  text: string | undefined;
  blocks: unknown[] | undefined;
}

function invalidBlocks(errors: string[]): Error {
  return slackError("invalid_blocks", {
    errors,
    response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) },
  });
}

/**
 * Reads and checks a message body (`text`, `blocks`) the way chat.* and response_url do: blocks that
 * break Block Kit limits, or name a file Slack has not processed, answer `invalid_blocks` with one
 * entry per problem in `errors`.
 */
export function readMessage(source: Args, opts: { requireContent: boolean } & CheckOptions): MessageContent {
  const text = str(source, "text");
  const rawBlocks = json(source, "blocks", "invalid_blocks_format");
  if (rawBlocks !== undefined && !Array.isArray(rawBlocks)) throw slackError("invalid_blocks_format");
  const blocks = rawBlocks as unknown[] | undefined;
  const hasAttachments = source.attachments !== undefined && source.attachments !== "";
  if (opts.requireContent && !text && (!blocks || blocks.length === 0) && !hasAttachments)
    throw slackError("no_text");
  if (text && text.length > SLACK_LIMITS.topLevelText) throw slackError("msg_too_long");
  if (blocks === undefined) return { text, blocks };
  const problems = checkMessageBlocks(blocks, opts);
  if (problems.length > 0) throw invalidBlocks(problems);
  return { text, blocks };
}

/** Reads and checks the `view` argument of views.*; `expected` is the only type the method accepts. */
export function readView(
  args: Args,
  expected: "modal" | "home",
  o: CheckOptions = {},
): Record<string, unknown> {
  const view = json(args, "view", "invalid_arguments");
  if (!isRecord(view))
    throw slackError("invalid_arguments", { response_metadata: { messages: ["[ERROR] missing view"] } });
  if (view.type !== expected)
    throw slackError("invalid_arguments", {
      response_metadata: { messages: [`[ERROR] view.type must be ${expected}`] },
    });
  const problems = checkViewPayload(view, expected, o);
  if (problems.length > 0) throw invalidBlocks(problems);
  return view;
}

/**
 * Check options of an authenticated call: its workspace's processed files may be shown, and the
 * block types a test told the stand-in to refuse are refused.
 */
export function filesOf(ctx: ApiContext): CheckOptions {
  return {
    fileReady: slackFileReady(ctx.state, ctx.baseUrl, authed(ctx).ws.teamId),
    refuse: ctx.state.refusedBlocks,
  };
}
