import type { LogEntry } from "../jobs/delivery-log.ts";
import { WATCHED_STATES } from "../jobs/queue-state.ts";
import { periodTime } from "../subscriptions/period.ts";
import { describeReason } from "../subscriptions/reasons.ts";
import { Html, html } from "./html.ts";
import type { SubscriptionRow, WorkspaceView } from "./status.ts";
import { type OpsSummary, sumOf, type Tally, type WorkspaceTally } from "./summary.ts";

/**
 * The /ops pages: server-rendered HTML with plain forms and links, no script. Pure: data in, markup
 * out. Every value goes through the escaping template (html.ts).
 */

const STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4b5563; --line: #d0d7de; --bad: #a40e26; --warn: #7a4b00; --ok: #116329; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: #f6f8fa; }
header a.home { font-weight: 700; color: var(--ink); text-decoration: none; }
header form { display: flex; gap: .5rem; align-items: center; margin: 0; }
header .who { margin-left: auto; color: var(--muted); }
main { padding: 1rem 1.5rem 3rem; max-width: 80rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
caption { text-align: left; color: var(--muted); padding: .25rem 0; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.bad { color: var(--bad); font-weight: 600; }
.warn { color: var(--warn); font-weight: 600; }
.ok { color: var(--ok); }
.muted { color: var(--muted); }
.notice { padding: .75rem 1rem; border: 1px solid var(--line); border-left: 4px solid var(--ok); background: #f6fff8; margin: 1rem 0; }
.notice.error { border-left-color: var(--bad); background: #fff5f5; }
a { color: #0550ae; }
button, input { font: inherit; }
button { padding: .3rem .8rem; border: 1px solid #1f6feb; background: #0969da; color: #fff; border-radius: 4px; cursor: pointer; }
button.quiet { background: #fff; color: #0550ae; }
input[type=text], input[type=password] { padding: .3rem .5rem; border: 1px solid #8c959f; border-radius: 4px; }
label { font-weight: 600; }
.field { display: flex; flex-direction: column; gap: .25rem; margin: 0 0 1rem; max-width: 28rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
`;

/** `2026-11-02 08:00 UTC` from an ISO instant or a delivery period; the text as is otherwise. */
export function when(isoOrPeriod: string | undefined): string {
  if (!isoOrPeriod) return "";
  const t = periodTime(isoOrPeriod) ?? new Date(isoOrPeriod);
  return Number.isNaN(t.getTime()) ? isoOrPeriod : `${t.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Seconds as the largest unit that keeps it short: `45 s`, `12 min`, `3.5 h`. */
export function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export interface Chrome {
  /** Signed-in operator (browser session); absent for bearer requests and the login page. */
  operator?: string;
  csrf?: string;
}

export function layout(title: string, body: Html, chrome: Chrome = {}): string {
  const nav = chrome.operator
    ? html`<form method="get" action="/ops/workspace" role="search">
        <label for="ws">Workspace</label>
        <input type="text" id="ws" name="ws" placeholder="T0123 or E01.T0123" required>
        <button type="submit" class="quiet">Open</button>
      </form>
      <span class="who">Signed in as ${chrome.operator}</span>
      <form method="post" action="/ops/logout">
        <input type="hidden" name="csrf" value="${chrome.csrf ?? ""}">
        <button type="submit" class="quiet">Sign out</button>
      </form>`
    : "";
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · insights-digest operations</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<header><a class="home" href="/ops">insights-digest operations</a>${nav}</header>
<main>
${body}
</main>
</body>
</html>`.text
  }\n`;
}

export function loginPage(error?: string): string {
  return layout(
    "Sign in",
    html`<h1>Sign in</h1>
<p>This page is for the people who run insights-digest. Sign in with the operations token (<code>OPS_TOKEN</code>).</p>
${error ? html`<p class="notice error" role="alert">${error}</p>` : ""}
<form method="post" action="/ops/login">
  <div class="field"><label for="operator">Your name (for the audit log)</label>
    <input type="text" id="operator" name="operator" autocomplete="name" required maxlength="60"></div>
  <div class="field"><label for="token">Operations token</label>
    <input type="password" id="token" name="token" autocomplete="current-password" required></div>
  <button type="submit">Sign in</button>
</form>`,
  );
}

export function messagePage(title: string, text: string, chrome: Chrome, back = "/ops"): string {
  return layout(title, html`<h1>${title}</h1><p>${text}</p><p><a href="${back}">Back</a></p>`, chrome);
}

const codes = (r: Record<string, number>) =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n], i) => html`${i > 0 ? ", " : ""}<code>${code}</code> ${n}`);

const workspaceLink = (ws: string) => html`<a href="/ops/workspace/${encodeURIComponent(ws)}">${ws}</a>`;

function tallyCells(t: Tally): Html {
  const failed = sumOf(t.failed);
  const skipped = sumOf(t.skipped);
  return html`<td class="n">${t.delivered + t.late}</td>
<td class="n ${t.late > 0 ? "warn" : ""}">${t.late}</td>
<td class="n">${skipped}</td><td>${skipped > 0 ? codes(t.skipped) : ""}</td>
<td class="n ${failed > 0 ? "bad" : ""}">${failed}</td><td>${failed > 0 ? codes(t.failed) : ""}</td>`;
}

function tallyTable(caption: string, totals: Tally, rows: WorkspaceTally[], late: number): Html {
  return html`<table>
<caption>${caption}. Late: posted more than ${duration(late)} after the scheduled minute.</caption>
<thead><tr><th scope="col">Workspace</th><th scope="col" class="n">Posted</th><th scope="col" class="n">Late</th>
<th scope="col" class="n">Skipped</th><th scope="col">Skipped because</th><th scope="col" class="n">Failed</th><th scope="col">Failed with</th></tr></thead>
<tbody>
${rows.map((w) => html`<tr><th scope="row">${workspaceLink(w.workspace)}</th>${tallyCells(w)}</tr>\n`)}
<tr><th scope="row">All workspaces</th>${tallyCells(totals)}</tr>
</tbody></table>`;
}

function entriesTable(caption: string, entries: LogEntry[], showWorkspace: boolean): Html {
  if (entries.length === 0) return html`<p class="muted">${caption}: none.</p>`;
  return html`<table>
<caption>${caption}</caption>
<thead><tr><th scope="col">Recorded</th>${showWorkspace ? html`<th scope="col">Workspace</th>` : ""}<th scope="col">Subscription</th>
<th scope="col">Scheduled for</th><th scope="col">Reason</th></tr></thead>
<tbody>
${entries.map(
  (e) => html`<tr><td>${when(e.at)}</td>${showWorkspace ? html`<td>${workspaceLink(e.workspace)}</td>` : ""}
<td><code>${e.subId}</code></td><td>${when(e.period)}</td>
<td>${e.outcome === "failed" ? html`<code>${e.reason}</code>: ${describeReason(e.reason).what}` : e.reason}</td></tr>\n`,
)}
</tbody></table>`;
}

export function overviewPage(s: OpsSummary, chrome: Chrome): string {
  const q = s.queue;
  const queue = html`<table>
<caption>Delivery jobs by state, read at ${when(s.at)}</caption>
<thead><tr>${WATCHED_STATES.map((st) => html`<th scope="col" class="n">${st}</th>`)}
<th scope="col" class="n">Oldest waiting</th><th scope="col" class="n">Stalls (24 h)</th></tr></thead>
<tbody><tr>${WATCHED_STATES.map((st) => html`<td class="n ${st === "failed" && q.counts[st] > 0 ? "warn" : ""}">${q.counts[st]}</td>`)}
<td class="n ${q.oldestWaitingSeconds > 600 ? "bad" : ""}">${duration(q.oldestWaitingSeconds)}</td>
<td class="n ${q.stalls24h > 0 ? "warn" : ""}">${q.stalls24h}</td></tr></tbody></table>`;
  const slot = s.lastSlot
    ? tallyTable(
        `Deliveries scheduled for ${when(s.lastSlot.period)}`,
        s.lastSlot.totals,
        s.lastSlot.workspaces,
        s.lateAfterSeconds,
      )
    : html`<p class="muted">No scheduled delivery recorded a verdict in the last 24 hours.</p>`;
  return layout(
    "Overview",
    html`<h1>Overview</h1>
<h2>Queue</h2>
${queue}
<h2>Last slot</h2>
${slot}
<h2>Last 24 hours</h2>
${tallyTable("Verdicts recorded in the last 24 hours", s.day.totals, s.day.workspaces, s.lateAfterSeconds)}
${s.day.overflow > 0 ? html`<p class="warn">${s.day.overflow} more verdicts were counted without a breakdown (the log's hourly cap).</p>` : ""}
<h2>Failures</h2>
${entriesTable("The newest failed deliveries of the last 24 hours", s.failures, true)}
<h2>Skipped runs</h2>
${entriesTable("The newest runs that had nothing to post", s.skips, true)}`,
    chrome,
  );
}

const RETRY_LABEL = { resume: "Resume and deliver", requeue: "Retry" } as const;

function retryForm(row: SubscriptionRow, workspace: string, csrf: string): Html {
  if (!row.retry) return html``;
  const period = row.retry.kind === "requeue" ? row.retry.period : (row.last?.period ?? "");
  return html`<form method="post" action="/ops/retry">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="ws" value="${workspace}">
<input type="hidden" name="sub" value="${row.id}">
<input type="hidden" name="period" value="${period}">
<button type="submit" aria-label="${RETRY_LABEL[row.retry.kind]} ${row.id}">${RETRY_LABEL[row.retry.kind]}</button>
</form>`;
}

function lastCell(row: SubscriptionRow): Html {
  const last = row.last;
  if (!last) return html`<span class="muted">never ran</span>`;
  const cls = last.outcome === "failed" ? "bad" : last.outcome === "skipped" ? "muted" : "ok";
  return html`<span class="${cls}">${last.outcome}</span> ${when(last.at)}<br><span class="muted">for ${when(last.period)}</span>${
    last.reason
      ? html`<br>${last.outcome === "failed" ? html`<code>${last.reason}</code>` : last.reason}`
      : ""
  }`;
}

export const NOTICES: Record<string, string> = {
  requeued: "The failed delivery was queued again; it shows here once a worker has run it.",
  resumed: "The subscription was resumed; the run it missed is queued and shows here once delivered.",
  resumed_nothing: "The subscription was resumed; no missed run was due, so the next scheduled run delivers.",
  gone: "That subscription no longer exists.",
  nothing_to_retry: "That subscription has no failed delivery to retry any more.",
  changed:
    "That delivery changed since the page was drawn (another run, or someone retried it); nothing was done.",
};

export function workspacePage(v: WorkspaceView, chrome: Chrome, notice?: string): string {
  const text = notice ? NOTICES[notice] : undefined;
  const ok = notice === "requeued" || notice?.startsWith("resumed");
  const rows = v.subscriptions.map(
    (r) => html`<tr>
<th scope="row"><code>${r.id}</code></th><td>${r.kind}</td><td><code>${r.channelId}</code></td><td>${r.schedule}</td>
<td>${r.status === "paused" ? html`<span class="warn">paused</span>${r.pausedReason ? html` (<code>${r.pausedReason}</code>)` : ""}` : "active"}</td>
<td>${lastCell(r)}</td>
<td>${r.why ?? ""}</td>
<td>${r.next.length > 0 ? r.next.map((n, i) => html`${i > 0 ? html`<br>` : ""}${when(n)}`) : html`<span class="muted">none while paused</span>`}</td>
<td>${retryForm(r, v.workspace, chrome.csrf ?? "")}</td>
</tr>\n`,
  );
  return layout(
    `Workspace ${v.workspace}`,
    html`<h1>Workspace <code>${v.workspace}</code></h1>
${text ? html`<p class="notice ${ok ? "" : "error"}" role="status">${text}</p>` : ""}
<h2>Last 24 hours</h2>
<p>Posted ${v.day.delivered + v.day.late} (late ${v.day.late}), skipped ${sumOf(v.day.skipped)}, failed ${sumOf(v.day.failed)}${
      sumOf(v.day.failed) > 0 ? html`: ${codes(v.day.failed)}` : ""
    }.</p>
<h2>Subscriptions and alerts</h2>
${
  v.subscriptions.length === 0
    ? html`<p class="muted">This workspace has no subscriptions.</p>`
    : html`<table>
<caption>${v.subscriptions.length} ${v.subscriptions.length === 1 ? "subscription" : "subscriptions"}; those with a failure to retry first</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Kind</th><th scope="col">Channel</th><th scope="col">Schedule</th>
<th scope="col">Status</th><th scope="col">Last run</th><th scope="col">Why it failed</th><th scope="col">Next runs</th><th scope="col">Action</th></tr></thead>
<tbody>
${rows}</tbody></table>`
}
<h2>Failures</h2>
${entriesTable("This workspace's failed deliveries of the last 24 hours", v.failures, false)}`,
    chrome,
  );
}
