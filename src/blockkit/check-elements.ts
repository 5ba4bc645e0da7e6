import {
  type CheckContext,
  checkActionId,
  checkArray,
  checkString,
  checkText,
  fmt,
  isObj,
  type Obj,
} from "./check-context.ts";
import { LIMITS as L } from "./limit-values.ts";

/** Element types by where Slack accepts them. */
const SELECTS = new Set([
  "static_select",
  "external_select",
  "users_select",
  "conversations_select",
  "channels_select",
  "multi_static_select",
  "multi_external_select",
  "multi_users_select",
  "multi_conversations_select",
  "multi_channels_select",
]);
const PICKERS = new Set(["datepicker", "timepicker", "datetimepicker", "checkboxes", "radio_buttons"]);
const INPUTS = new Set([
  "plain_text_input",
  "email_text_input",
  "url_text_input",
  "number_text_input",
  "rich_text_input",
  "file_input",
]);

export type ElementPlace = "actions" | "accessory" | "input";

function allowed(type: string, place: ElementPlace): boolean {
  if (SELECTS.has(type) || PICKERS.has(type)) return true;
  if (place === "actions") return type === "button" || type === "overflow";
  if (place === "accessory") return type === "button" || type === "overflow" || type === "image";
  return INPUTS.has(type);
}

function checkOption(ctx: CheckContext, v: unknown, path: string, plainOnly: boolean): void {
  if (!isObj(v)) {
    ctx.problems.push(`${path} must be an option object`);
    return;
  }
  checkText(ctx, v.text, `${path}.text`, L.optionText, { required: true, plainOnly });
  checkString(ctx, v.value, `${path}.value`, L.optionValue, { min: 1 });
  checkText(ctx, v.description, `${path}.description`, L.optionDescription, { plainOnly: true });
  checkString(ctx, v.url, `${path}.url`, L.url);
}

function checkOptionList(
  ctx: CheckContext,
  v: unknown,
  path: string,
  max: number,
  plainOnly: boolean,
): Obj[] {
  const list = checkArray(ctx, v, path, max, { min: 1 }) ?? [];
  list.forEach((o, i) => {
    checkOption(ctx, o, `${path}[${i}]`, plainOnly);
  });
  return list.filter(isObj);
}

/** The same option (value and text) must appear in the menu, or Slack rejects the initial option. */
function checkInitial(ctx: CheckContext, initial: unknown, path: string, options: Obj[] | null): void {
  if (initial === undefined) return;
  const list = Array.isArray(initial) ? initial : [initial];
  list.forEach((o, i) => {
    const p = Array.isArray(initial) ? `${path}[${i}]` : path;
    checkOption(ctx, o, p, true);
    if (!options || !isObj(o)) return;
    const text = isObj(o.text) ? o.text.text : undefined;
    const match = options.some((x) => x.value === o.value && isObj(x.text) && x.text.text === text);
    if (!match) ctx.problems.push(`${p} is not one of the menu's options`);
  });
}

function checkStaticOptions(ctx: CheckContext, el: Obj, path: string): void {
  const hasOptions = el.options !== undefined;
  const hasGroups = el.option_groups !== undefined;
  if (hasOptions === hasGroups) {
    ctx.problems.push(`${path} needs exactly one of options or option_groups`);
    return;
  }
  let all: Obj[] = [];
  if (hasOptions) all = checkOptionList(ctx, el.options, `${path}.options`, L.selectOptions, true);
  else {
    const groups = checkArray(ctx, el.option_groups, `${path}.option_groups`, L.selectOptionGroups, {
      min: 1,
    });
    (groups ?? []).forEach((g, i) => {
      const gp = `${path}.option_groups[${i}]`;
      if (!isObj(g)) {
        ctx.problems.push(`${gp} must be an option group`);
        return;
      }
      checkText(ctx, g.label, `${gp}.label`, L.optionGroupLabel, { required: true, plainOnly: true });
      all = all.concat(checkOptionList(ctx, g.options, `${gp}.options`, L.selectOptions, true));
    });
  }
  checkInitial(ctx, el.initial_option ?? el.initial_options, `${path}.initial_option`, all);
}

export function checkConfirm(ctx: CheckContext, v: unknown, path: string): void {
  if (v === undefined) return;
  if (!isObj(v)) {
    ctx.problems.push(`${path} must be a confirm object`);
    return;
  }
  checkText(ctx, v.title, `${path}.title`, L.confirmTitle, { required: true, plainOnly: true });
  checkText(ctx, v.text, `${path}.text`, L.confirmText, { required: true });
  checkText(ctx, v.confirm, `${path}.confirm`, L.confirmButton, { required: true, plainOnly: true });
  checkText(ctx, v.deny, `${path}.deny`, L.confirmButton, { required: true, plainOnly: true });
}

export function checkImageSource(ctx: CheckContext, v: Obj, path: string): void {
  checkString(ctx, v.alt_text, `${path}.alt_text`, L.imageAltText, { required: true, min: 1 });
  const file = v.slack_file;
  if (v.image_url === undefined && file === undefined) {
    ctx.problems.push(`${path} needs image_url or slack_file`);
    return;
  }
  checkString(ctx, v.image_url, `${path}.image_url`, L.url, { min: 1 });
  if (file !== undefined && !(isObj(file) && (typeof file.id === "string" || typeof file.url === "string")))
    ctx.problems.push(`${path}.slack_file needs an id or a url`);
}

/**
 * Checks one interactive (or accessory image) element; `actionIds` is the set of its block, for
 * uniqueness.
 */
export function checkElement(
  ctx: CheckContext,
  v: unknown,
  path: string,
  place: ElementPlace,
  actionIds: Set<string>,
): void {
  if (!isObj(v) || typeof v.type !== "string") {
    ctx.problems.push(`${path} must be an element with a type`);
    return;
  }
  const type = v.type;
  if (!allowed(type, place)) {
    ctx.problems.push(`${path}: element type "${type.slice(0, 40)}" is not allowed in ${place}`);
    return;
  }
  if (type === "image") {
    checkImageSource(ctx, v, path);
    return;
  }
  if (v.action_id !== undefined) checkActionId(ctx, v.action_id, path, actionIds);
  checkText(ctx, v.placeholder, `${path}.placeholder`, L.placeholder, { plainOnly: true });
  checkConfirm(ctx, v.confirm, `${path}.confirm`);
  if (type === "button") {
    checkText(ctx, v.text, `${path}.text`, L.buttonText, { required: true, plainOnly: true });
    checkString(ctx, v.value, `${path}.value`, L.buttonValue);
    checkString(ctx, v.url, `${path}.url`, L.url, { min: 1 });
    if (v.style !== undefined && v.style !== "primary" && v.style !== "danger")
      ctx.problems.push(`${path}.style must be primary or danger`);
  } else if (type === "static_select" || type === "multi_static_select") {
    checkStaticOptions(ctx, v, path);
  } else if (type === "external_select" || type === "multi_external_select") {
    const q = v.min_query_length;
    if (q !== undefined && !(Number.isInteger(q) && (q as number) >= 0))
      ctx.problems.push(`${path}.min_query_length must be a whole number ≥ 0`);
    checkInitial(ctx, v.initial_option ?? v.initial_options, `${path}.initial_option`, null);
  } else if (type === "overflow") {
    checkOptionList(ctx, v.options, `${path}.options`, L.overflowOptions, true);
  } else if (type === "checkboxes" || type === "radio_buttons") {
    const options = checkOptionList(ctx, v.options, `${path}.options`, L.choiceOptions, false);
    checkInitial(ctx, v.initial_option ?? v.initial_options, `${path}.initial_option`, options);
  } else if (INPUTS.has(type)) {
    checkString(ctx, v.initial_value, `${path}.initial_value`, L.inputLength);
    for (const k of ["min_length", "max_length"]) {
      const n = v[k];
      if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0 && (n as number) <= L.inputLength))
        ctx.problems.push(`${path}.${k} must be a whole number from 0 to ${fmt(L.inputLength)}`);
    }
  }
}

/** A feedback element (the one context_actions element the app sends): two buttons, each text and value. */
export function checkFeedbackButtons(
  ctx: CheckContext,
  v: unknown,
  path: string,
  actionIds: Set<string>,
): void {
  if (!isObj(v) || v.type !== "feedback_buttons") {
    ctx.problems.push(`${path} must be a feedback_buttons element`);
    return;
  }
  if (v.action_id !== undefined) checkActionId(ctx, v.action_id, path, actionIds);
  for (const side of ["positive_button", "negative_button"] as const) {
    const b = v[side];
    const at = `${path}.${side}`;
    if (!isObj(b)) {
      ctx.problems.push(`${at} is required`);
      continue;
    }
    checkText(ctx, b.text, `${at}.text`, L.buttonText, { required: true, plainOnly: true });
    checkString(ctx, b.value, `${at}.value`, L.buttonValue, { required: true, min: 1 });
    checkString(ctx, b.accessibility_label, `${at}.accessibility_label`, L.buttonText);
  }
}
