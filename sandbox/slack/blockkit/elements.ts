import { allowedAt, COMMON, ELEMENTS, INPUT_ONLY, type Place } from "./element-types.ts";
import { SLACK_LIMITS as L } from "./limits.ts";
import {
  checkList,
  checkStr,
  checkText,
  fail,
  isObj,
  type Obj,
  onlyProps,
  required,
  type Walk,
} from "./walk.ts";

function checkOption(w: Walk, v: unknown, path: string, plainOnly: boolean, withUrl: boolean): void {
  if (!isObj(v)) {
    fail(w, path, "must provide an object");
    return;
  }
  onlyProps(w, v, path, withUrl ? ["text", "value", "description", "url"] : ["text", "value", "description"]);
  if (required(w, v, "text", path)) checkText(w, v.text, `${path}/text`, L.optionText, plainOnly);
  if (required(w, v, "value", path)) checkStr(w, v.value, `${path}/value`, L.optionValue, 1);
  checkText(w, v.description, `${path}/description`, L.optionDescription, plainOnly);
  checkStr(w, v.url, `${path}/url`, L.url, 1);
}

function checkOptions(w: Walk, v: unknown, path: string, max: number, o: { plain: boolean; url?: boolean }) {
  const list = checkList(w, v, path, max);
  list.forEach((opt, i) => {
    checkOption(w, opt, `${path}/${i}`, o.plain, o.url === true);
  });
  return list.filter(isObj);
}

/** An initial option must be one of the menu's own options (same value and text). */
function checkInitial(w: Walk, v: unknown, path: string, options: Obj[]): void {
  if (v === undefined) return;
  const chosen = Array.isArray(v) ? v : [v];
  chosen.forEach((o, i) => {
    const at = Array.isArray(v) ? `${path}/${i}` : path;
    checkOption(w, o, at, false, false);
    const text = isObj(o) && isObj(o.text) ? o.text.text : undefined;
    const known = options.some(
      (x) => isObj(o) && x.value === o.value && isObj(x.text) && x.text.text === text,
    );
    if (options.length > 0 && !known) fail(w, at, "must match one of the provided options");
  });
}

function checkStaticSelect(w: Walk, el: Obj, path: string): void {
  if ((el.options === undefined) === (el.option_groups === undefined)) {
    fail(w, path, "must provide exactly one of options or option_groups");
    return;
  }
  let all: Obj[] = [];
  if (el.options !== undefined)
    all = checkOptions(w, el.options, `${path}/options`, L.selectOptions, { plain: true });
  checkList(w, el.option_groups, `${path}/option_groups`, L.selectOptionGroups).forEach((g, i) => {
    const at = `${path}/option_groups/${i}`;
    if (!isObj(g)) {
      fail(w, at, "must provide an object");
      return;
    }
    onlyProps(w, g, at, ["label", "options"]);
    if (required(w, g, "label", at)) checkText(w, g.label, `${at}/label`, L.optionGroupLabel, true);
    if (required(w, g, "options", at))
      all = all.concat(checkOptions(w, g.options, `${at}/options`, L.selectOptions, { plain: true }));
  });
  checkInitial(w, el.initial_option ?? el.initial_options, `${path}/initial_option`, all);
}

export function checkConfirm(w: Walk, v: unknown, path: string): void {
  if (v === undefined) return;
  if (!isObj(v)) {
    fail(w, path, "must provide an object");
    return;
  }
  onlyProps(w, v, path, ["title", "text", "confirm", "deny", "style"]);
  if (required(w, v, "title", path)) checkText(w, v.title, `${path}/title`, L.confirmTitle, true);
  if (required(w, v, "text", path)) checkText(w, v.text, `${path}/text`, L.confirmText);
  if (required(w, v, "confirm", path)) checkText(w, v.confirm, `${path}/confirm`, L.confirmButton, true);
  if (required(w, v, "deny", path)) checkText(w, v.deny, `${path}/deny`, L.confirmButton, true);
}

/** An image's source: exactly one of `image_url` or `slack_file`, and the file must be ready. */
export function checkImageSource(w: Walk, v: Obj, path: string): void {
  if (required(w, v, "alt_text", path)) checkStr(w, v.alt_text, `${path}/alt_text`, L.imageAltText, 1);
  if ((v.image_url === undefined) === (v.slack_file === undefined)) {
    fail(w, path, "must provide exactly one of image_url or slack_file");
    return;
  }
  checkStr(w, v.image_url, `${path}/image_url`, L.url, 1);
  if (v.slack_file === undefined) return;
  const file = v.slack_file;
  const ok = isObj(file) && (typeof file.id === "string" || typeof file.url === "string");
  if (!ok || !w.fileReady(file)) fail(w, `${path}/slack_file`, "invalid slack file");
}

function checkTextInput(w: Walk, el: Obj, path: string): void {
  checkStr(w, el.initial_value, `${path}/initial_value`, L.inputLength);
  for (const k of ["min_length", "max_length"]) {
    const n = el[k];
    if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0 && (n as number) <= L.inputLength))
      fail(w, `${path}/${k}`, `must be a whole number from 0 to ${L.inputLength}`);
  }
}

/** One element; `actionIds` holds its block's ids (Slack wants them unique per block). */
export function checkElement(w: Walk, v: unknown, path: string, place: Place, actionIds: Set<string>): void {
  if (!isObj(v)) {
    fail(w, path, "must provide an object");
    return;
  }
  const type = typeof v.type === "string" ? v.type : "";
  if (!allowedAt(type, place)) {
    fail(w, `${path}/type`, `unsupported type: ${type.slice(0, 40)}`);
    return;
  }
  onlyProps(w, v, path, [...COMMON, ...(ELEMENTS[type] ?? [])]);
  if (type === "image") {
    checkImageSource(w, v, path);
    return;
  }
  checkStr(w, v.action_id, `${path}/action_id`, L.id, 1);
  if (typeof v.action_id === "string") {
    if (actionIds.has(v.action_id)) fail(w, `${path}/action_id`, "duplicate action_id in block");
    actionIds.add(v.action_id);
  }
  checkText(w, v.placeholder, `${path}/placeholder`, L.placeholder, true);
  checkConfirm(w, v.confirm, `${path}/confirm`);
  if (type === "button") {
    if (required(w, v, "text", path)) checkText(w, v.text, `${path}/text`, L.buttonText, true);
    checkStr(w, v.value, `${path}/value`, L.buttonValue);
    checkStr(w, v.url, `${path}/url`, L.url, 1);
    checkStr(w, v.accessibility_label, `${path}/accessibility_label`, L.buttonAccessibilityLabel, 1);
    if (v.style !== undefined && v.style !== "primary" && v.style !== "danger")
      fail(w, `${path}/style`, 'must be one of "primary", "danger"');
  } else if (type === "static_select" || type === "multi_static_select") checkStaticSelect(w, v, path);
  else if (type === "overflow") {
    if (required(w, v, "options", path))
      checkOptions(w, v.options, `${path}/options`, L.overflowOptions, { plain: true, url: true });
  } else if (type === "checkboxes" || type === "radio_buttons") {
    const options = required(w, v, "options", path)
      ? checkOptions(w, v.options, `${path}/options`, L.choiceOptions, { plain: false })
      : [];
    checkInitial(w, v.initial_option ?? v.initial_options, `${path}/initial_option`, options);
  } else if (type === "external_select" || type === "multi_external_select") {
    const q = v.min_query_length;
    if (q !== undefined && !(Number.isInteger(q) && (q as number) >= 0))
      fail(w, `${path}/min_query_length`, "must be a whole number of 0 or more");
    checkInitial(w, v.initial_option ?? v.initial_options, `${path}/initial_option`, []);
  } else if (INPUT_ONLY.has(type)) checkTextInput(w, v, path);
}
