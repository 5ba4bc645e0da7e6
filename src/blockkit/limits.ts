import { checkBlock } from "./check-blocks.ts";
import {
  type BlockSurface,
  type CheckContext,
  checkArray,
  checkString,
  checkText,
  fmt,
  isObj,
} from "./check-context.ts";
import { LIMITS as L } from "./limit-values.ts";

export { LIMITS } from "./limit-values.ts";

/**
 * Checks payloads against Block Kit's limits and required fields. Used by the
 * template tests and by the Slack stand-in to reject what Slack would reject, so it depends on
 * nothing and never throws: junk in, a list of problems out.
 */

function walk(surface: BlockSurface, body: (ctx: CheckContext) => void): CheckContext {
  const ctx: CheckContext = {
    surface,
    problems: [],
    blockIds: new Set(),
    textTotal: 0,
    typeCounts: new Map(),
  };
  try {
    body(ctx);
  } catch {
    // Only a hostile object (a throwing getter or proxy) gets here; still an answer, not a crash.
    ctx.problems.push("payload could not be read");
  }
  return ctx;
}

function checkBlocks(ctx: CheckContext, blocks: unknown, max: number, required: boolean): unknown[] {
  const list = checkArray(ctx, blocks, "blocks", max, { required }) ?? [];
  list.forEach((b, i) => {
    checkBlock(ctx, b, `blocks[${i}]`);
  });
  return list;
}

/**
 * Problems with a message payload (`chat.postMessage`, `chat.update`, a `response_url` reply), or
 * with `surface` "unfurl" a link preview's; empty when Slack would accept it.
 *
 * @example checkMessage({ text: "hi", blocks: [{ type: "divider" }] }) // []
 */
export function checkMessage(msg: unknown, surface: "message" | "unfurl" = "message"): string[] {
  return walk(surface, (ctx) => {
    if (!isObj(msg)) {
      ctx.problems.push("message must be an object");
      return;
    }
    const blocks = checkBlocks(ctx, msg.blocks, L.messageBlocks, false);
    checkString(ctx, msg.text, "text", L.topLevelText);
    const hasText = typeof msg.text === "string" && msg.text.trim() !== "";
    if (blocks.length === 0 && !hasText) ctx.problems.push("a message needs text or blocks");
    if (typeof msg.text === "string") ctx.textTotal += msg.text.length;
    if (ctx.textTotal > L.messageTotalText)
      ctx.problems.push(
        `message text totals ${fmt(ctx.textTotal)} characters, over ${fmt(L.messageTotalText)}`,
      );
  }).problems;
}

/**
 * Characters of text a message carries by the checker's count (top-level text and every text
 * object), so a template can size its variable parts to stay under {@link LIMITS.messageTotalText}.
 */
export function messageTextLength(msg: unknown): number {
  return walk("message", (ctx) => {
    if (!isObj(msg)) return;
    checkBlocks(ctx, msg.blocks, Number.MAX_SAFE_INTEGER, false);
    if (typeof msg.text === "string") ctx.textTotal += msg.text.length;
  }).textTotal;
}

/** Problems with a modal or Home tab view (`views.open`, `views.update`, `views.publish`). */
export function checkView(view: unknown): string[] {
  return walk("modal", (ctx) => {
    const surface = isObj(view) ? view.type : undefined;
    if (!isObj(view) || (surface !== "modal" && surface !== "home")) {
      ctx.problems.push("view.type must be modal or home");
      return;
    }
    ctx.surface = surface;
    const blocks = checkBlocks(ctx, view.blocks, L.viewBlocks, true);
    checkString(ctx, view.private_metadata, "private_metadata", L.privateMetadata);
    checkString(ctx, view.callback_id, "callback_id", L.id);
    checkString(ctx, view.external_id, "external_id", L.id);
    if (surface === "home") return;
    checkText(ctx, view.title, "title", L.modalTitle, { required: true, plainOnly: true });
    checkText(ctx, view.submit, "submit", L.modalButton, { plainOnly: true });
    checkText(ctx, view.close, "close", L.modalButton, { plainOnly: true });
    const hasInput = blocks.some((b) => isObj(b) && b.type === "input");
    if (hasInput && view.submit === undefined)
      ctx.problems.push("a modal with input blocks needs a submit button");
  }).problems;
}
