import { AppError } from "../../../src/errors.ts";
import { isRecord } from "../api/args.ts";

type Obj = Record<string, unknown>;

/** The interactive element with `actionId` and its block's id, searched through every block kind. */
export function findElement(
  blocks: unknown,
  actionId: string,
): { blockId: string; element: Obj } | undefined {
  if (!Array.isArray(blocks)) return undefined;
  for (const block of blocks.filter(isRecord)) {
    const candidates = [
      ...(Array.isArray(block.elements) ? block.elements : []),
      block.accessory,
      block.element,
    ].filter(isRecord);
    const element = candidates.find((e) => e.action_id === actionId);
    if (element) return { blockId: typeof block.block_id === "string" ? block.block_id : "", element };
  }
  return undefined;
}

function options(element: Obj): Obj[] {
  const flat = Array.isArray(element.options) ? element.options : [];
  const grouped = Array.isArray(element.option_groups)
    ? element.option_groups.filter(isRecord).flatMap((g) => (Array.isArray(g.options) ? g.options : []))
    : [];
  return [...flat, ...grouped].filter(isRecord);
}

function mustFind(blocks: unknown, actionId: string) {
  const found = findElement(blocks, actionId);
  if (!found) throw new AppError("action_not_found", `no element with action_id "${actionId}" in the blocks`);
  return found;
}

/**
 * The `actions[0]` Slack sends when a user clicks the button `actionId` in `blocks`.
 *
 * @example
 * await slack.sendBlockAction({ ...who, message: { ts }, actions: [clickButton(msg.blocks, "range_last30d")] });
 */
export function clickButton(blocks: unknown, actionId: string, actionTs = `${Date.now() / 1000}`): Obj {
  const { blockId, element } = mustFind(blocks, actionId);
  return {
    type: "button",
    action_id: actionId,
    block_id: blockId,
    text: element.text,
    ...(element.value !== undefined ? { value: element.value } : {}),
    action_ts: actionTs,
  };
}

/**
 * The action for choosing the option with `value` in the select `actionId`. External selects carry
 * no options in the blocks; pass the option the app served (`option`) for those.
 */
export function chooseOption(blocks: unknown, actionId: string, value: string, option?: Obj): Obj {
  const { blockId, element } = mustFind(blocks, actionId);
  const selected = option ?? options(element).find((o) => o.value === value);
  if (!selected)
    throw new AppError("option_not_found", `select "${actionId}" has no option with value "${value}"`);
  return {
    type: element.type,
    action_id: actionId,
    block_id: blockId,
    selected_option: selected,
    ...(element.placeholder !== undefined ? { placeholder: element.placeholder } : {}),
    action_ts: `${Date.now() / 1000}`,
  };
}

/**
 * The action Slack sends when a user presses one side of the feedback buttons `actionId` (in a
 * context_actions block): the element's type, and the pressed button's value and text.
 */
export function pressFeedback(blocks: unknown, actionId: string, side: "positive" | "negative"): Obj {
  const { blockId, element } = mustFind(blocks, actionId);
  const button = element[`${side}_button`];
  if (element.type !== "feedback_buttons" || !isRecord(button))
    throw new AppError("action_not_found", `"${actionId}" is not a feedback_buttons element`);
  return {
    type: "feedback_buttons",
    action_id: actionId,
    block_id: blockId,
    value: button.value,
    text: button.text,
    action_ts: `${Date.now() / 1000}`,
  };
}
