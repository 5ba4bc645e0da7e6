import type { LogEntry } from "../jobs/delivery-log.ts";
import { WATCHED_STATES } from "../jobs/queue-state.ts";
import { duration, when } from "./pages.ts";
import type { WorkspaceView } from "./status.ts";
import { type OpsSummary, sumOf, type Tally, type WorkspaceTally } from "./summary.ts";

/**
 * The /ops summary as plain text for a terminal (`insights-digest status`): the same figures, in
 * aligned columns, no colour (it goes to files and pagers as often as to a tty). Pure.
 */

const codes = (r: Record<string, number>) =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(", ");

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i === 0 || i >= cells.length - 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

const tallyRow = (name: string, t: Tally) => [
  name,
  String(t.delivered + t.late),
  String(t.late),
  String(sumOf(t.skipped)),
  String(sumOf(t.failed)),
  codes(t.failed),
];

function tallyTable(totals: Tally, rows: WorkspaceTally[], limit = 30): string[] {
  const shown = rows.slice(0, limit).map((w) => tallyRow(w.workspace, w));
  const more = rows.length > limit ? [`  … ${rows.length - limit} more workspaces (--json lists all)`] : [];
  return [
    ...table(
      ["workspace", "posted", "late", "skipped", "failed", "failed with"],
      [...shown, tallyRow("all workspaces", totals)],
    ).map((l) => `  ${l}`),
    ...more,
  ];
}

const entryLine = (e: LogEntry, workspace = true) =>
  `  ${when(e.at)}  ${workspace ? `${e.workspace}  ` : ""}${e.subId}  for ${when(e.period)}  ${e.reason}`;

export function summaryText(s: OpsSummary): string {
  const q = s.queue;
  const out = [
    `insights-digest status at ${when(s.at)} (late: posted more than ${duration(s.lateAfterSeconds)} after its minute)`,
    "",
    "Queue",
    `  ${WATCHED_STATES.map((st) => `${st} ${q.counts[st]}`).join(", ")}`,
    `  oldest waiting ${duration(q.oldestWaitingSeconds)}, stalls in 24 h ${q.stalls24h}`,
    "",
  ];
  if (s.lastSlot)
    out.push(
      `Last slot: ${when(s.lastSlot.period)}`,
      ...tallyTable(s.lastSlot.totals, s.lastSlot.workspaces),
    );
  else out.push("Last slot: no scheduled delivery recorded a verdict in the last 24 hours");
  out.push("", "Last 24 hours", ...tallyTable(s.day.totals, s.day.workspaces));
  if (s.day.overflow > 0)
    out.push(`  ${s.day.overflow} more verdicts counted without a breakdown (hourly cap)`);
  out.push("", `Failures (newest ${s.failures.length})`);
  out.push(...(s.failures.length > 0 ? s.failures.slice(0, 20).map((e) => entryLine(e)) : ["  none"]));
  return `${out.join("\n")}\n`;
}

export function workspaceText(v: WorkspaceView): string {
  const out = [
    `Workspace ${v.workspace}`,
    `  last 24 h: posted ${v.day.delivered + v.day.late} (late ${v.day.late}), skipped ${sumOf(v.day.skipped)}, failed ${sumOf(v.day.failed)}${sumOf(v.day.failed) > 0 ? ` (${codes(v.day.failed)})` : ""}`,
    "",
    `Subscriptions (${v.subscriptions.length})`,
  ];
  for (const r of v.subscriptions) {
    const last = r.last
      ? `${r.last.outcome} ${when(r.last.at)} for ${when(r.last.period)}${r.last.reason ? ` (${r.last.reason})` : ""}`
      : "never ran";
    out.push(
      `  ${r.id}  ${r.kind}  ${r.channelId}  ${r.schedule}  ${r.status}${r.pausedReason ? ` (${r.pausedReason})` : ""}`,
      `      last: ${last}`,
      ...(r.why ? [`      why: ${r.why}`] : []),
      `      next: ${r.next.length > 0 ? r.next.map(when).join(", ") : "none while paused"}`,
      ...(r.retry
        ? [
            `      retry: ${r.retry.kind === "resume" ? "resume it" : `requeue ${r.retry.period}`} (from /ops)`,
          ]
        : []),
    );
  }
  out.push("", `Failures in 24 h (${v.failures.length})`);
  out.push(...(v.failures.length > 0 ? v.failures.map((e) => entryLine(e, false)) : ["  none"]));
  return `${out.join("\n")}\n`;
}
