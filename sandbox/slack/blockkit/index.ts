import { checkBlock } from "./blocks.ts";
import { SLACK_LIMITS as L } from "./limits.ts";
import {
  checkList,
  checkStr,
  checkText,
  fail,
  isObj,
  type Obj,
  onlyProps,
  type Surface,
  type Walk,
} from "./walk.ts";

export { SLACK_LIMITS, type SlackLimitName } from "./limits.ts";

/**
 * The stand-in's own Block Kit check: what Slack answers `invalid_blocks` to, with one problem per
 * entry. It shares nothing with the app's checker, so a limit the app got wrong shows up here as a
 * refusal, as it would in Slack.
 */

export interface CheckOptions {
  /** Whether a `slack_file` reference names a file Slack can show now; default: none can. */
  fileReady?: (ref: Obj) => boolean;
  /** Block types to refuse as unsupported (a test's lever; see Control.refuseBlocks). */
  refuse?: ReadonlySet<string>;
}

function walk(surface: Surface, o: CheckOptions, body: (w: Walk) => void): string[] {
  const w: Walk = {
    surface,
    problems: [],
    blockIds: new Set(),
    markdownTotal: 0,
    fileReady: o.fileReady ?? (() => false),
    typeCounts: new Map(),
    refused: o.refuse ?? new Set(),
  };
  try {
    body(w);
  } catch {
    // Only a hostile value (a throwing getter) lands here; Slack would not parse it either.
    w.problems.push("payload could not be read [json-pointer:]");
  }
  if (w.markdownTotal > L.markdownTotal)
    w.problems.push(
      `markdown blocks together must be less than ${L.markdownTotal + 1} characters [json-pointer:/blocks]`,
    );
  return w.problems;
}

function checkBlocks(w: Walk, blocks: unknown, max: number): unknown[] {
  const list = checkList(w, blocks, "/blocks", max, 0);
  list.forEach((b, i) => {
    checkBlock(w, b, `/blocks/${i}`);
  });
  return list;
}

/** Problems with a message's `blocks` (chat.*, response_url, files.completeUploadExternal). */
export function checkMessageBlocks(blocks: unknown, o: CheckOptions = {}): string[] {
  return walk("message", o, (w) => {
    checkBlocks(w, blocks, L.messageBlocks);
  });
}

/** Problems with the `blocks` of one link's unfurl (chat.unfurl): a message attachment's. */
export function checkUnfurlBlocks(blocks: unknown, o: CheckOptions = {}): string[] {
  return walk("unfurl", o, (w) => {
    checkBlocks(w, blocks, L.messageBlocks);
  });
}

/** Problems with a view (views.open / push / update / publish); `expected` is the method's type. */
export function checkViewPayload(view: unknown, expected: "modal" | "home", o: CheckOptions = {}): string[] {
  return walk(expected, o, (w) => {
    if (!isObj(view)) {
      fail(w, "", "must provide an object");
      return;
    }
    if (view.type !== expected) {
      fail(w, "/type", `must be ${expected}`);
      return;
    }
    const common = ["type", "blocks", "private_metadata", "callback_id", "external_id"];
    const modal = ["title", "close", "submit", "clear_on_close", "notify_on_close", "submit_disabled"];
    onlyProps(w, view, "", expected === "modal" ? [...common, ...modal] : common);
    if (view.blocks === undefined) fail(w, "", "missing required field: blocks");
    const blocks = checkBlocks(w, view.blocks, L.viewBlocks);
    checkStr(w, view.private_metadata, "/private_metadata", L.privateMetadata);
    checkStr(w, view.callback_id, "/callback_id", L.id);
    checkStr(w, view.external_id, "/external_id", L.id);
    if (expected === "home") return;
    if (view.title === undefined) fail(w, "", "missing required field: title");
    checkText(w, view.title, "/title", L.modalTitle, true);
    checkText(w, view.submit, "/submit", L.modalButton, true);
    checkText(w, view.close, "/close", L.modalButton, true);
    if (view.submit === undefined && blocks.some((b) => isObj(b) && b.type === "input"))
      fail(w, "", "missing required field: submit (a modal with input blocks needs one)");
  });
}
