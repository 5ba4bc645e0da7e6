/**
 * Splits slash-command text into words, keeping `key:"quoted value"` together. Slack sends the text
 * HTML-escaped and desktop clients often turn quotes into typographic ones, so both are undone here.
 */
export function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

const QUOTES = /[“”„‟«»"]/g;
const SINGLE_QUOTES = /[‘’‚‛]/g;

export interface Token {
  /** Lower-cased key before `:` for `key:value` words (`asset`, `scanner`), else undefined. */
  key?: string;
  /** The value (quotes removed, inner spaces kept) or the whole word. */
  value: string;
  raw: string;
}

export function tokenize(input: string): Token[] {
  const text = unescapeSlack(input)
    .replace(QUOTES, '"')
    .replace(SINGLE_QUOTES, "'")
    .replace(/\s+/g, " ")
    .trim();
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === " ") {
      i++;
      continue;
    }
    let word = "";
    let quoted = false;
    let quoteChar = "";
    const start = i;
    while (i < text.length) {
      const ch = text[i] as string;
      if (quoted) {
        if (ch === quoteChar) quoted = false;
        else word += ch;
      } else if (ch === '"' || (ch === "'" && /[:=]$/.test(word))) {
        quoted = true;
        quoteChar = ch;
      } else if (ch === " ") {
        break;
      } else {
        word += ch;
      }
      i++;
    }
    const raw = text.slice(start, i);
    const m = /^([A-Za-z]+)[:=](.*)$/s.exec(word);
    if (m && !/^\d/.test(word)) {
      tokens.push({ key: (m[1] as string).toLowerCase(), value: (m[2] as string).trim(), raw });
    } else {
      tokens.push({ value: word, raw });
    }
  }
  return tokens;
}
