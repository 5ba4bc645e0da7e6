/**
 * Terminal typography for the Block Kit preview: Slack mrkdwn to readable text (optionally with
 * ANSI styles), display width, and word wrapping that keeps wide emoji and styles in mind.
 */

export interface Style {
  color: boolean;
}

const SGR = {
  bold: ["\x1b[1m", "\x1b[22m"],
  dim: ["\x1b[2m", "\x1b[22m"],
  italic: ["\x1b[3m", "\x1b[23m"],
  underline: ["\x1b[4m", "\x1b[24m"],
  strike: ["\x1b[9m", "\x1b[29m"],
  cyan: ["\x1b[36m", "\x1b[39m"],
  green: ["\x1b[32m", "\x1b[39m"],
  red: ["\x1b[31m", "\x1b[39m"],
} as const;

export type StyleName = keyof typeof SGR;

export function paint(text: string, style: StyleName, s: Style): string {
  return s.color ? `${SGR[style][0]}${text}${SGR[style][1]}` : text;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
const ANSI = /\x1b\[[0-9;]*m/g;
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
const WIDE =
  /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60\uffe0-\uffe6]/u;

/** Columns a string takes in a terminal: ANSI codes take none, emoji and CJK take two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(text.replace(ANSI, ""))) width += WIDE.test(segment) ? 2 : 1;
  return width;
}

export function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Wraps one line at spaces to `width` columns; a word longer than a line is left whole. */
export function wrap(line: string, width: number): string[] {
  if (displayWidth(line) <= width) return [line];
  const out: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    const next = current === "" ? word : `${current} ${word}`;
    if (current !== "" && displayWidth(next) > width) {
      out.push(current);
      current = word;
    } else current = next;
  }
  out.push(current);
  return out;
}

function link(inner: string, s: Style): string {
  const [target = "", label] = inner.split("|", 2);
  if (target.startsWith("!date^")) return label ?? target;
  if (target.startsWith("@")) return paint(`@${label ?? target.slice(1)}`, "cyan", s);
  if (target.startsWith("#")) return paint(`#${label ?? target.slice(1)}`, "cyan", s);
  if (target.startsWith("!")) return paint(`@${label ?? target.slice(1)}`, "cyan", s);
  return label ? `${paint(label, "underline", s)} (${target})` : paint(target, "underline", s);
}

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function inline(text: string, s: Style): string {
  return emojify(text)
    .replace(/<([^<>\n]+)>/g, (_, inner: string) => link(inner, s))
    .replace(
      /(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,:;!?])/g,
      (_, pre: string, t: string) => pre + paint(t, "bold", s),
    )
    .replace(
      /(^|[\s(])_([^_\n]+)_(?=$|[\s).,:;!?])/g,
      (_, pre: string, t: string) => pre + paint(t, "italic", s),
    )
    .replace(
      /(^|[\s(])~([^~\n]+)~(?=$|[\s).,:;!?])/g,
      (_, pre: string, t: string) => pre + paint(t, "strike", s),
    );
}

/**
 * The emoji codes our messages use, as Slack draws them; a test keeps this table in step with the
 * templates. Codes not listed stay as `:code:`, which still reads.
 */
export const EMOJI: Readonly<Record<string, string>> = {
  ":arrow_forward:": "▶️",
  ":bust_in_silhouette:": "👤",
  ":calendar:": "📆",
  ":double_vertical_bar:": "⏸️",
  ":eyes:": "👀",
  ":fast_forward:": "⏩",
  ":gear:": "⚙️",
  ":grey_question:": "❔",
  ":hourglass_flowing_sand:": "⏳",
  ":inbox_tray:": "📥",
  ":information_source:": "ℹ️",
  ":large_orange_circle:": "🟠",
  ":mag:": "🔍",
  ":outbox_tray:": "📤",
  ":page_facing_up:": "📄",
  ":red_circle:": "🔴",
  ":rotating_light:": "🚨",
  ":scroll:": "📜",
  ":thinking_face:": "🤔",
  ":warning:": "⚠️",
  ":wastebasket:": "🗑️",
  ":white_check_mark:": "✅",
  ":x:": "❌",
  ":zzz:": "💤",
};

/** Replaces the `:code:`s of EMOJI with their emoji (Slack does so in mrkdwn and plain_text alike). */
export function emojify(text: string): string {
  return text.replace(/:[a-z_]+:/g, (code) => EMOJI[code] ?? code);
}

/**
 * Slack mrkdwn as terminal text: `*bold*`, `_italic_`, `~strike~` and `code` lose their markers
 * (and gain styles with colour on), `<url|label>` reads "label (url)", mentions read `@name`, dates
 * their fallback, entities are decoded last so escaped user text stays literal.
 */
export function renderMrkdwn(text: string, s: Style): string {
  return text
    .split(/(`[^`\n]+`)/g)
    .map((part, i) =>
      i % 2 === 1 ? paint(decodeEntities(part.slice(1, -1)), "cyan", s) : decodeEntities(inline(part, s)),
    )
    .join("");
}
