import { ACTION } from "../ids.ts";
import { displayWidth, emojify, padEnd, paint, renderMrkdwn, type Style, wrap } from "./terminal.ts";
import { renderChart, renderTable } from "./to-text-data.ts";

/**
 * Block Kit as terminal text, for `insights-digest preview` and the demo: what a reader would see
 * in Slack, laid out in lines. Takes `unknown` because previews show whatever a template produced,
 * and skips what it cannot read rather than failing.
 */

export interface RenderOptions {
  /** ANSI styles (bold header, dim context, coloured buttons). Default off. */
  color?: boolean;
  /** Columns to wrap at. Default 80. */
  width?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Menus whose label the preview shows before the current choice, e.g. `[▾ Asset: All assets]`. */
const MENU_LABELS: Record<string, string> = {
  [ACTION.assetSelect]: "Asset",
  [ACTION.scannerSelect]: "Scanner",
};

function textOf(v: unknown, s: Style): string {
  if (!isObj(v) || typeof v.text !== "string") return "";
  if (v.type === "mrkdwn") return renderMrkdwn(v.text, s);
  return v.emoji === false ? v.text : emojify(v.text);
}

function lines(text: string, width: number): string[] {
  return text.split("\n").flatMap((l) => wrap(l, width));
}

function element(el: unknown, s: Style): string {
  if (!isObj(el)) return "";
  if (el.type === "button") {
    const label = `${textOf(el.text, s)}${typeof el.url === "string" ? " ↗" : ""}`;
    if (el.style === "primary") return s.color ? paint(`[ ${label} ]`, "green", s) : `[● ${label} ]`;
    return el.style === "danger" ? paint(`[ ${label} ]`, "red", s) : `[ ${label} ]`;
  }
  if (typeof el.type === "string" && el.type.endsWith("select")) {
    const label = typeof el.action_id === "string" ? MENU_LABELS[el.action_id] : undefined;
    const current = isObj(el.initial_option) ? textOf(el.initial_option.text, s) : textOf(el.placeholder, s);
    return `[▾ ${label ? `${label}: ` : ""}${current || "choose"}]`;
  }
  if (el.type === "image") return `[image: ${String(el.alt_text ?? "")}]`;
  if (el.type === "feedback_buttons" && isObj(el.positive_button) && isObj(el.negative_button))
    return `[ ${textOf(el.positive_button.text, s)} ] [ ${textOf(el.negative_button.text, s)} ]`;
  return textOf(el, s) || (typeof el.type === "string" ? `[${el.type}]` : "");
}

/** Lays controls out in rows, breaking between controls rather than inside one. */
function pack(items: string[], width: number): string[] {
  const rows: string[] = [];
  for (const item of items.filter((i) => i !== "")) {
    const last = rows.at(-1);
    if (last !== undefined && displayWidth(`${last} ${item}`) <= width)
      rows[rows.length - 1] = `${last} ${item}`;
    else rows.push(...wrap(item, width));
  }
  return rows;
}

function fieldColumns(fields: unknown[], width: number, s: Style): string[] {
  const col = Math.max(10, Math.floor((width - 3) / 2));
  const out: string[] = [];
  for (let i = 0; i < fields.length; i += 2) {
    const left = lines(textOf(fields[i], s), col);
    const right = lines(textOf(fields[i + 1], s), col);
    for (let r = 0; r < Math.max(left.length, right.length); r++)
      out.push(`${padEnd(left[r] ?? "", col)}   ${right[r] ?? ""}`.trimEnd());
    if (i + 2 < fields.length) out.push("");
  }
  return out;
}

function block(b: unknown, width: number, s: Style): string[] {
  if (!isObj(b)) return [];
  switch (b.type) {
    case "header": {
      const text = textOf(b.text, s);
      return s.color
        ? [paint(paint(text, "bold", s), "underline", s)]
        : [text, "═".repeat(Math.min(width, displayWidth(text)))];
    }
    case "section": {
      const text = textOf(b.text, s);
      const out = text === "" ? [] : lines(text, width);
      const fields = list(b.fields);
      if (fields.length > 0) out.push(...(out.length > 0 ? [""] : []), ...fieldColumns(fields, width, s));
      if (b.accessory !== undefined) out.push(element(b.accessory, s));
      return out;
    }
    case "context": {
      const text = list(b.elements)
        .map((e) => (isObj(e) && e.type === "image" ? "" : textOf(e, s)))
        .filter((t) => t !== "")
        .join("  ");
      return lines(text, width).map((l) => paint(l, "dim", s));
    }
    case "divider":
      return ["─".repeat(width)];
    case "image":
      return [`[chart: ${typeof b.alt_text === "string" ? b.alt_text : "image"}]`];
    case "actions":
    case "context_actions":
      return pack(
        list(b.elements).map((e) => element(e, s)),
        width,
      );
    case "input":
      return [`${textOf(b.label, s)}: [${isObj(b.element) ? textOf(b.element.placeholder, s) : ""}]`];
    case "data_visualization":
      return renderChart(b, width, s);
    case "table":
    case "data_table":
      return renderTable(b, width, s);
    default:
      return [];
  }
}

/**
 * Renders a message (`{blocks, text}`) or a view (`{title, blocks}`) as lines of terminal text;
 * without blocks, the message's `text`.
 *
 * @example renderText(digestMessage(view), { color: process.stdout.isTTY, width: 100 })
 */
export function renderText(msg: unknown, opts: RenderOptions = {}): string {
  const s: Style = { color: opts.color ?? false };
  const width = Math.max(20, Math.floor(opts.width ?? 80));
  if (!isObj(msg)) return "";
  const out: string[] = [];
  if (isObj(msg.title)) out.push(paint(textOf(msg.title, s), "bold", s), "");
  const blocks = list(msg.blocks);
  if (blocks.length === 0 && typeof msg.text === "string")
    out.push(...lines(renderMrkdwn(msg.text, s), width));
  for (const b of blocks) {
    const rendered = block(b, width, s);
    if (rendered.length > 0) out.push(...rendered, "");
  }
  while (out.at(-1) === "") out.pop();
  return `${out.join("\n")}\n`;
}
