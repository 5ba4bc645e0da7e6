import { displayWidth, padEnd, paint, type Style } from "./terminal.ts";

/**
 * The blocks Slack draws data with, as terminal text: a chart becomes a bar per category and series
 * (full blocks for the first series, light shade for the second, and so on) with its values; a
 * table becomes aligned columns under a rule. Readable stand-ins, not pictures: what a reader of the
 * digest in Slack would learn from the block.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Bar glyphs per series, in the order Slack colours them. */
const MARKS = ["█", "░", "▒", "▓", "▞", "▚"];
const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = "";
  for (const ch of text) {
    if (displayWidth(`${out}${ch}…`) > width) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * A data visualization block: its title and axis, a legend, then per category one bar per series,
 * scaled to the largest value.
 */
export function renderChart(b: Obj, width: number, s: Style): string[] {
  const chart = isObj(b.chart) ? b.chart : {};
  const axis = isObj(chart.axis_config) ? chart.axis_config : {};
  const series = list(chart.series).filter(isObj);
  const categories = list(axis.categories).map(str);
  const title = `📈 ${str(b.title)}${axis.x_label ? ` · ${str(axis.x_label)}` : ""}`;
  const kind = `${str(chart.type) || "chart"} chart${axis.y_label ? ` of ${str(axis.y_label)}` : ""}`;
  const legend = series.map((x, i) => `${MARKS[i % MARKS.length]} ${str(x.name)}`).join("   ");
  const pointOf = (x: Obj, cat: string) => {
    const p = list(x.data).find((d) => isObj(d) && d.label === cat) as Obj | undefined;
    return typeof p?.value === "number" && Number.isFinite(p.value) ? p.value : null;
  };
  const all = series.flatMap((x) => categories.map((c) => pointOf(x, c) ?? 0));
  const max = Math.max(0, ...all);
  const labelW = Math.min(20, Math.max(0, ...categories.map(displayWidth)));
  const valueW = Math.max(1, ...all.map((v) => number.format(v).length));
  const barW = Math.max(4, width - labelW - valueW - 4);
  const out = [paint(cut(title, width), "bold", s), paint(cut(kind, width), "dim", s), cut(legend, width)];
  for (const cat of categories)
    series.forEach((x, i) => {
      const v = pointOf(x, cat);
      const label = i === 0 ? cat : "";
      const bar =
        v === null ? "" : MARKS[i % MARKS.length]?.repeat(max > 0 ? Math.round((v / max) * barW) : 0);
      const shown = v === null ? "–" : number.format(v);
      out.push(
        `${padEnd(cut(label, labelW), labelW)}  ${padEnd(bar ?? "", barW)} ${shown.padStart(valueW)}`.trimEnd(),
      );
    });
  return out;
}

function cellText(c: unknown): string {
  if (!isObj(c)) return "";
  if (typeof c.text === "string") return c.text.replace(/\s+/g, " ");
  return typeof c.value === "number" ? number.format(c.value) : "";
}

/**
 * A table block (or a data table): columns as wide as their widest cell, the widest cut until the
 * row fits `width`; right-aligned where the block says; a rule under the header row.
 */
export function renderTable(b: Obj, width: number, s: Style): string[] {
  const rows = list(b.rows).map((r) => list(r).map(cellText));
  if (rows.length === 0) return [];
  const settings = list(b.column_settings);
  const cols = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: cols }, (_, i) =>
    Math.max(1, ...rows.map((r) => displayWidth(r[i] ?? ""))),
  );
  const gap = 2;
  while (widths.reduce((a, w) => a + w + gap, -gap) > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 6) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const right = (i: number) => {
    const set = settings[i];
    return isObj(set) && set.align === "right";
  };
  const line = (r: string[]) =>
    widths
      .map((w, i) => {
        const text = cut(r[i] ?? "", w);
        return right(i) ? " ".repeat(Math.max(0, w - displayWidth(text))) + text : padEnd(text, w);
      })
      .join(" ".repeat(gap))
      .trimEnd();
  const [head, ...body] = rows;
  const caption = typeof b.caption === "string" ? [paint(cut(b.caption, width), "bold", s)] : [];
  return [
    ...caption,
    paint(line(head ?? []), "bold", s),
    "─".repeat(
      Math.min(
        width,
        widths.reduce((a, w) => a + w + gap, -gap),
      ),
    ),
    ...body.map(line),
  ];
}
