import { checkMessage, checkView } from "../../../src/blockkit/limits.ts";
import { type Args, isRecord, json, slackError, str } from "./args.ts";

/** Slack cuts top-level text at 40,000 characters with `msg_too_long`. */
const MAX_TEXT = 40_000;

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
 * break Block Kit limits answer `invalid_blocks` with one entry per problem in `errors`.
 */
export function readMessage(source: Args, opts: { requireContent: boolean }): MessageContent {
  const text = str(source, "text");
  const rawBlocks = json(source, "blocks", "invalid_blocks_format");
  if (rawBlocks !== undefined && !Array.isArray(rawBlocks)) throw slackError("invalid_blocks_format");
  const blocks = rawBlocks as unknown[] | undefined;
  const hasAttachments = source.attachments !== undefined && source.attachments !== "";
  if (opts.requireContent && !text && (!blocks || blocks.length === 0) && !hasAttachments)
    throw slackError("no_text");
  if (text && text.length > MAX_TEXT) throw slackError("msg_too_long");
  if (text === undefined && blocks === undefined) return { text, blocks };
  const problems = checkMessage({ ...(blocks ? { blocks } : {}), ...(text ? { text } : {}) });
  if (problems.length > 0) throw invalidBlocks(problems);
  return { text, blocks };
}

/** Reads and checks the `view` argument of views.*; `expected` is the only type the method accepts. */
export function readView(args: Args, expected: "modal" | "home"): Record<string, unknown> {
  const view = json(args, "view", "invalid_arguments");
  if (!isRecord(view))
    throw slackError("invalid_arguments", { response_metadata: { messages: ["[ERROR] missing view"] } });
  if (view.type !== expected)
    throw slackError("invalid_arguments", {
      response_metadata: { messages: [`[ERROR] view.type must be ${expected}`] },
    });
  const problems = checkView(view);
  if (problems.length > 0) throw invalidBlocks(problems);
  return view;
}
