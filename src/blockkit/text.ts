import type { Mrkdwn, PlainText } from "./types.ts";

/**
 * Text helpers every template goes through, so escaping and truncation are decided once:
 * user data is escaped before it enters mrkdwn, and every string is cut to its Block Kit limit
 * on a grapheme boundary (an emoji or a surrogate pair is never split).
 */

const ELLIPSIS = "…";
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * Neutralises Slack's control characters in user data bound for mrkdwn: after this, a name like
 * `<!channel>` or `<https://evil|x>` renders as literal text, never as a mention or a link.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Control characters (newlines included) become spaces: names are shown on one line. */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}

/**
 * Cuts `text` to at most `max` UTF-16 code units (the conservative way to count against Slack's
 * limits), ending in "…", without splitting a grapheme.
 *
 * @example truncate("payments / api-gateway", 12) // "payments / …"
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return "";
  let out = "";
  for (const { segment } of segmenter.segment(text)) {
    if (out.length + segment.length > max - ELLIPSIS.length) break;
    out += segment;
  }
  return out + ELLIPSIS;
}

/**
 * Truncates already-built mrkdwn: like {@link truncate}, then backs off so the cut never leaves half
 * an entity (`&am…`) or an unterminated `<…>` sequence that Slack would misread.
 */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = truncate(text, max).slice(0, -ELLIPSIS.length);
  const amp = cut.lastIndexOf("&");
  if (amp > cut.lastIndexOf(";")) cut = cut.slice(0, amp);
  const lt = cut.lastIndexOf("<");
  if (lt > cut.lastIndexOf(">")) cut = cut.slice(0, lt);
  return cut + ELLIPSIS;
}

/** A plain_text object, one line, cut to `max`; never empty (Slack rejects empty text). */
export function plain(text: string, max: number): PlainText {
  const clean = oneLine(text);
  return { type: "plain_text", text: truncate(clean === "" ? "–" : clean, max), emoji: true };
}

/**
 * A mrkdwn object from text whose user data is already escaped. `verbatim` stops Slack from
 * auto-linking bare URLs or channel names that might still be in user data.
 */
export function mrkdwn(text: string, max = 3000): Mrkdwn {
  return { type: "mrkdwn", text: truncateMrkdwn(text.trim() === "" ? "–" : text, max), verbatim: true };
}

/** Escapes and shortens one piece of user data (a name) for use inside mrkdwn. */
export function userText(text: string, max: number): string {
  return escapeMrkdwn(truncate(oneLine(text), max));
}
