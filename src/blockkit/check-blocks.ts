import { checkDataVisualization, checkPlacement, checkTable } from "./check-charts.ts";
import {
  type CheckContext,
  checkArray,
  checkBlockId,
  checkString,
  checkText,
  isObj,
} from "./check-context.ts";
import { checkElement, checkFeedbackButtons, checkImageSource } from "./check-elements.ts";
import { LIMITS as L } from "./limit-values.ts";

const KNOWN = new Set([
  "section",
  "header",
  "context",
  "divider",
  "actions",
  "image",
  "input",
  "rich_text",
  "markdown",
  "file",
  "video",
  "data_visualization",
  "table",
  "context_actions",
]);

/** Checks one block of a message or view against the limits and required fields. */
export function checkBlock(ctx: CheckContext, block: unknown, path: string): void {
  if (!isObj(block)) {
    ctx.problems.push(`${path} must be a block object`);
    return;
  }
  const type = block.type;
  if (typeof type !== "string" || !KNOWN.has(type)) {
    ctx.problems.push(`${path}.type is missing or unknown`);
    return;
  }
  const at = `${path} (${type})`;
  checkPlacement(ctx, type, at);
  if (block.block_id !== undefined) checkBlockId(ctx, block.block_id, at);
  const actionIds = new Set<string>();
  switch (type) {
    case "section": {
      if (block.text === undefined && block.fields === undefined)
        ctx.problems.push(`${at} needs text or fields`);
      checkText(ctx, block.text, `${at}.text`, L.sectionText);
      const fields = checkArray(ctx, block.fields, `${at}.fields`, L.sectionFields, { min: 1 });
      fields?.forEach((f, i) => {
        checkText(ctx, f, `${at}.fields[${i}]`, L.sectionFieldText);
      });
      if (block.accessory !== undefined)
        checkElement(ctx, block.accessory, `${at}.accessory`, "accessory", actionIds);
      return;
    }
    case "header":
      checkText(ctx, block.text, `${at}.text`, L.headerText, { required: true, plainOnly: true });
      return;
    case "context":
      eachElement(ctx, block, at, L.contextElements, (e, p) => {
        if (isObj(e) && e.type === "image") checkImageSource(ctx, e, p);
        else checkText(ctx, e, p, L.contextText, { required: true });
      });
      return;
    case "actions":
      eachElement(ctx, block, at, L.actionsElements, (e, p) => {
        checkElement(ctx, e, p, "actions", actionIds);
      });
      return;
    case "image":
      checkImageSource(ctx, block, at);
      checkText(ctx, block.title, `${at}.title`, L.imageTitle, { plainOnly: true });
      return;
    case "input":
      if (ctx.surface === "message" || ctx.surface === "unfurl")
        ctx.problems.push(`${at}: input blocks belong in modals and Home tabs`);
      checkText(ctx, block.label, `${at}.label`, L.inputLabel, { required: true, plainOnly: true });
      checkText(ctx, block.hint, `${at}.hint`, L.inputHint, { plainOnly: true });
      if (block.element === undefined) ctx.problems.push(`${at}.element is required`);
      else checkElement(ctx, block.element, `${at}.element`, "input", actionIds);
      return;
    case "markdown":
      checkString(ctx, block.text, `${at}.text`, L.markdownBlockText, { required: true, min: 1 });
      if (typeof block.text === "string") ctx.textTotal += block.text.length;
      return;
    case "rich_text":
      checkArray(ctx, block.elements, `${at}.elements`, Number.MAX_SAFE_INTEGER, { required: true });
      return;
    case "data_visualization":
      checkDataVisualization(ctx, block, at);
      return;
    case "table":
      checkTable(ctx, block, at);
      return;
    case "context_actions":
      if (ctx.surface !== "message") ctx.problems.push(`${at}: context_actions blocks belong in messages`);
      eachElement(ctx, block, at, L.contextActionsElements, (e, p) => {
        checkFeedbackButtons(ctx, e, p, actionIds);
      });
      return;
    default:
      // divider, file, video: nothing we build depends on their inner fields
      return;
  }
}

/** A block's required, non-empty `elements` within `max`, each handed to `check` with its path. */
function eachElement(
  ctx: CheckContext,
  block: Record<string, unknown>,
  at: string,
  max: number,
  check: (element: unknown, path: string) => void,
): void {
  const elements = checkArray(ctx, block.elements, `${at}.elements`, max, { required: true, min: 1 });
  elements?.forEach((e, i) => {
    check(e, `${at}.elements[${i}]`);
  });
}
