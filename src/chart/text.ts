/** Text that goes into the SVG: escaped, stripped of what XML cannot hold, cut to fit. */

// XML 1.0 forbids most C0 controls; one in an asset name would make the whole SVG unparseable.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Makes any string safe as SVG text content or attribute value.
 *
 * @example escapeXml('a <b> & "c"') // "a &lt;b&gt; &amp; &quot;c&quot;"
 */
export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, "")
    .replace(LONE_SURROGATE, "\uFFFD")
    .replace(/[\t\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * Rough advance width of `text` in Inter at `fontSize`. Only used to decide where to cut and how
 * wide the gutters are, so erring a little wide is the safe side.
 */
export function estimateWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const ch of text) {
    if (/[iIl.,:;'|!]/.test(ch)) em += 0.3;
    else if (/[mwMW@]/.test(ch)) em += 0.9;
    else if (/[A-Z0-9]/.test(ch)) em += 0.68;
    else if (ch === " ") em += 0.28;
    else em += 0.58;
  }
  return em * fontSize * (bold ? 1.06 : 1);
}

/** Cuts `text` with an ellipsis so its estimated width stays within `maxWidth`. */
export function fitText(text: string, maxWidth: number, fontSize: number, bold = false): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (estimateWidth(clean, fontSize, bold) <= maxWidth) return clean;
  const chars = Array.from(clean);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const candidate = `${chars.slice(0, mid).join("").trimEnd()}…`;
    if (estimateWidth(candidate, fontSize, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? "…" : `${chars.slice(0, lo).join("").trimEnd()}…`;
}
