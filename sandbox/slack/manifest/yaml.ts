/**
 * The YAML the app manifest uses, and no more: block mappings and sequences by indentation, plain
 * and quoted scalars, `>`/`|` block scalars, `[a, b]` flow lists and comments. The stand-in reads
 * manifest.yaml with this instead of the app's code, so a manifest the app misreads is still caught.
 * Anything outside that subset throws with the line number.
 */

export type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  no: number;
  indent: number;
  text: string;
}

function stripComment(raw: string): string {
  let quote: string | undefined;
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || raw[i - 1] === " ")) return raw.slice(0, i);
  }
  return raw;
}

function scalar(text: string, no: number): Yaml {
  const t = text.trim();
  if (t === "" || t === "~" || t === "null") return null;
  if (t === "true") return true;
  if (t === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t.startsWith('"')) {
    if (!t.endsWith('"') || t.length < 2) throw new Error(`manifest line ${no}: unterminated string`);
    return JSON.parse(t) as string;
  }
  if (t.startsWith("'")) {
    if (!t.endsWith("'") || t.length < 2) throw new Error(`manifest line ${no}: unterminated string`);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  if (t.startsWith("[")) {
    if (!t.endsWith("]")) throw new Error(`manifest line ${no}: unterminated list`);
    const inner = t.slice(1, -1).trim();
    return inner === "" ? [] : inner.split(",").map((part) => scalar(part, no));
  }
  if (t.startsWith("{")) throw new Error(`manifest line ${no}: flow mappings are not supported`);
  return t;
}

/** Parses the manifest's YAML into plain values. */
export function parseYaml(source: string): Yaml {
  const lines: Line[] = [];
  source.split(/\r?\n/).forEach((raw, i) => {
    const text = stripComment(raw).trimEnd();
    if (text.trim() === "") return;
    if (raw.includes("\t")) throw new Error(`manifest line ${i + 1}: tabs are not allowed in YAML`);
    lines.push({ no: i + 1, indent: text.length - text.trimStart().length, text: text.trimStart() });
  });
  let pos = 0;
  const rawLines = source.split(/\r?\n/);

  /** A `>`/`|` block scalar: every following line indented deeper than `parent`. */
  function blockScalar(style: string, parent: number, no: number): string {
    const body: string[] = [];
    for (let i = no; i < rawLines.length; i += 1) {
      const raw = rawLines[i] ?? "";
      if (raw.trim() !== "" && raw.length - raw.trimStart().length <= parent) break;
      body.push(raw.trim());
    }
    while (pos < lines.length && (lines[pos] as Line).indent > parent) pos += 1;
    const text = style.startsWith(">") ? body.join(" ").replace(/\s+/g, " ") : body.join("\n");
    return style.endsWith("-") ? text.trim() : `${text.trim()}\n`;
  }

  function value(rest: string, indent: number, no: number): Yaml {
    const r = rest.trim();
    if (/^[>|][-+]?$/.test(r)) return blockScalar(r, indent, no);
    if (r !== "") return scalar(r, no);
    const next = lines[pos];
    if (!next || next.indent < indent) return null;
    if (next.indent === indent && !next.text.startsWith("- ")) return null;
    return node(next.indent);
  }

  function mapping(indent: number, first?: string, firstNo?: number): Record<string, Yaml> {
    const out: Record<string, Yaml> = {};
    const entry = (text: string, no: number) => {
      const m = /^("[^"]*"|'[^']*'|[^:]+?):(\s+(.*))?$/.exec(text);
      if (!m) throw new Error(`manifest line ${no}: expected "key: value"`);
      const key = String(scalar(m[1] as string, no));
      out[key] = value(m[3] ?? "", indent, no);
    };
    if (first !== undefined) entry(first, firstNo ?? 0);
    while (pos < lines.length) {
      const line = lines[pos] as Line;
      if (line.indent !== indent || line.text.startsWith("- ")) break;
      pos += 1;
      entry(line.text, line.no);
    }
    return out;
  }

  function sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    while (pos < lines.length) {
      const line = lines[pos] as Line;
      if (line.indent !== indent || !(line.text === "-" || line.text.startsWith("- "))) break;
      pos += 1;
      const rest = line.text.slice(1).trimStart();
      const inner = indent + (line.text.length - rest.length);
      if (/^("[^"]*"|'[^']*'|[^:"'[]+?):(\s|$)/.test(rest)) out.push(mapping(inner, rest, line.no));
      else out.push(rest === "" ? node((lines[pos] as Line).indent) : scalar(rest, line.no));
    }
    return out;
  }

  function node(indent: number): Yaml {
    const line = lines[pos];
    if (!line) return null;
    return line.text.startsWith("- ") || line.text === "-" ? sequence(indent) : mapping(indent);
  }

  const root = node(lines[0]?.indent ?? 0);
  if (pos < lines.length) throw new Error(`manifest line ${(lines[pos] as Line).no}: unexpected indentation`);
  return root;
}
