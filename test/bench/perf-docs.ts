import type { BenchResults } from "./main.ts";
import { benchCommand, table } from "./markdown.ts";
import { checkTargets, type TargetCheck } from "./targets.ts";

/**
 * The figures of one run as docs/performance.md shows them: every row names the report it comes from
 * (linked from docs/) and that report's date, and every note under the table is the `why` the targets
 * computed from this run's own measurements. Nothing here is fixed text about the code: what limits a
 * target, and what was fixed on the way, is for the person who reads the figures to write, with the
 * report beside it.
 */

const verdict = (t: TargetCheck) => (t.met === null ? "–" : t.met ? "✅" : "❌");

/** The Markdown link to a report from docs/performance.md, with its date as the text. */
export function reportLink(r: BenchResults, reportFile: string): string {
  return `[${r.meta.startedAt.slice(0, 16).replace("T", " ")} UTC](../test/bench/results/${reportFile})`;
}

export function performanceSection(r: BenchResults, reportFile: string): string {
  const m = r.meta;
  const command = benchCommand(m);
  const link = reportLink(r, reportFile);
  const measured = checkTargets(r).filter((t) => t.met !== null);
  const missed = measured.filter((t) => t.met === false && t.why);
  return [
    `## Figures of ${link}`,
    "",
    `\`${command}\` · commit ${m.commit} · Node ${m.node}${m.machineNode ? ` (the machine runs ${m.machineNode})` : ""} · ${m.cpus} × ${m.cpuModel} · load average ${m.loadAvgStart.join(" / ")} at the start, ${m.loadAvgEnd.join(" / ")} at the end · ${m.durationS} s. Rows for docs/performance.md (each names this report and its date); targets this run did not measure are left out.`,
    "",
    table(
      ["Target", "Figure", "Report", ""],
      measured.map((t) => [t.target, t.figure, link, verdict(t)]),
    ),
    ...(missed.length > 0
      ? [
          "",
          "Measured alongside the missed targets (from this run):",
          "",
          ...missed.map((t) => `- **${t.target}** (${t.figure}): ${t.why}.`),
        ]
      : []),
    "",
  ].join("\n");
}
