import type { BenchResults } from "./main.ts";
import { int, round } from "./stats.ts";
import type { TargetCheck } from "./targets.ts";

/** The bench report's pieces of Markdown, one way for every section. */

/** Milliseconds as seconds with one decimal; "—" when the run did not get that far. */
export const seconds = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? "—" : `${round(ms / 1000, 1)} s`;

/** A Markdown table; `align` gives each column's separator cell (`---:` for numbers), `---` by default. */
export function table(head: string[], rows: (string | number)[][], align: string[] = head.map(() => "---")) {
  const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [row(head), row(align), ...rows.map(row)].join("\n");
}

/** A table under its introduction, as a section's lines; none at all when there are no rows. */
export function tableUnder(intro: string, head: string[], rows: (string | number)[][]): string[] {
  return rows.length === 0 ? [] : [intro, "", table(head, rows), ""];
}

/** A target whose section did not run (or failed): no figure, no verdict. */
export const notMeasured = (target: string): TargetCheck => ({ target, figure: "not measured", met: null });

/** What a fault run ended with, as the fault tables show it (single Redis and cluster alike). */
export const faultCells = (r: {
  delivered: number;
  lost: number;
  duplicates: number;
  failureNotices: number;
  timeToAllMs: number | null;
}) => [int(r.delivered), int(r.lost), int(r.duplicates), int(r.failureNotices), seconds(r.timeToAllMs)];

/** A fault run's outcome beyond lost and duplicated: failure notices and how long it took. */
export function faultMeasured(r: {
  lost: number;
  duplicates: number;
  failureNotices: number;
  timeToAllMs: number | null;
}): string | undefined {
  if (r.lost === 0 && r.duplicates === 0) return undefined;
  return `${int(r.failureNotices)} failure notices; ${r.timeToAllMs === null ? "not all delivered before the run ended" : `all delivered after ${round(r.timeToAllMs / 1000, 1)} s`}`;
}

/** The command that made a run: `npm run bench -- --quick --only monday --subs 2000`. */
export function benchCommand(m: Pick<BenchResults["meta"], "quick" | "only" | "subs">): string {
  const flags = [
    ...(m.quick ? ["--quick"] : []),
    ...(m.only ? [`--only ${m.only.join(",")}`] : []),
    ...(m.subs === undefined ? [] : [`--subs ${m.subs}`]),
  ];
  return `npm run bench${flags.length > 0 ? ` -- ${flags.join(" ")}` : ""}`;
}
