/**
 * HTML built from tagged templates: every interpolated value is escaped unless it is already
 * {@link Html} (a fragment built the same way). Lists are joined; null, undefined and false vanish.
 * Nothing the page shows (workspace ids, reasons, operator names) can become markup.
 *
 * @example
 * html`<td>${reason}</td>`; // "<td>&lt;b&gt;</td>" for reason "<b>"
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);

function piece(v: unknown): string {
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(piece).join("");
  if (v === null || v === undefined || v === false) return "";
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + (strings[i + 1] ?? "");
  return new Html(out);
}
