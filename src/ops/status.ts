import type { DeliveryLog, LogEntry } from "../jobs/delivery-log.ts";
import type { DeliveryQueue } from "../jobs/queue.ts";
import { oldestWaitingSeconds, queueCounts } from "../jobs/queue-state.ts";
import { parseWorkspaceLabel, type WorkspaceRef, workspaceLabel } from "../store/keys.ts";
import { describeReason } from "../subscriptions/reasons.ts";
import { scheduleText } from "../subscriptions/schedule.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { LastDelivery, Subscription } from "../subscriptions/types.ts";
import { type RetryPlan, retryPlan } from "./retry.ts";
import { type OpsSummary, summarize, type Tally, tallies } from "./summary.ts";

/** Where the operators' views read from: the queue, the delivery log, the subscriptions. */
export interface OpsSources {
  queue: Pick<DeliveryQueue, "getJobCounts" | "getJobs">;
  log: Pick<DeliveryLog, "read" | "lateAfterMs">;
  subscriptions: Pick<SubscriptionService, "list" | "nextRuns">;
  clock: () => Date;
}

/** The overview: the last slot, the last 24 h, the queue, the newest failures. */
export async function readSummary(s: OpsSources): Promise<OpsSummary> {
  const now = s.clock();
  const [log, counts, oldest] = await Promise.all([
    s.log.read(now, 24),
    queueCounts(s.queue),
    oldestWaitingSeconds(s.queue, now.getTime()),
  ]);
  return summarize({
    log,
    queue: { counts, oldestWaitingSeconds: oldest },
    now,
    lateAfterMs: s.log.lateAfterMs,
  });
}

/** One subscription as the workspace view shows it. */
export interface SubscriptionRow {
  id: string;
  kind: "digest" | "alert";
  channelId: string;
  schedule: string;
  status: Subscription["status"];
  pausedReason?: string;
  pausedAt?: string;
  last?: LastDelivery;
  /** Why the last run failed or the pause happened, in words (a code's description). */
  why?: string;
  /** The next fire times (ISO), none while paused. */
  next: string[];
  retry: RetryPlan | null;
}

/** One workspace: its subscriptions and alerts, their last and next runs, its last day's verdicts. */
export interface WorkspaceView {
  workspace: string;
  day: Tally;
  subscriptions: SubscriptionRow[];
  /** This workspace's failures of the last 24 h, newest first. */
  failures: LogEntry[];
}

/** The ref a workspace label (`<enterprise|->.<team|->`) or a bare team id names; null if neither. */
export function workspaceRefOf(text: string): WorkspaceRef | null {
  const t = text.trim();
  if (/^[TE][A-Z0-9]{1,31}$/.test(t)) return parseWorkspaceLabel(`-.${t}`);
  return parseWorkspaceLabel(t);
}

export function subscriptionRow(sub: Subscription, next: Date[]): SubscriptionRow {
  const code =
    sub.status === "paused"
      ? sub.pausedReason
      : sub.lastDelivery?.outcome === "failed"
        ? sub.lastDelivery.reason
        : undefined;
  return {
    id: sub.id,
    kind: sub.mode === "alert" ? "alert" : "digest",
    channelId: sub.channelId,
    schedule: scheduleText(sub.schedule, sub.time, sub.tz),
    status: sub.status,
    ...(sub.pausedReason ? { pausedReason: sub.pausedReason } : {}),
    ...(sub.pausedAt ? { pausedAt: sub.pausedAt } : {}),
    ...(sub.lastDelivery ? { last: sub.lastDelivery } : {}),
    ...(code ? { why: describeReason(code).what } : {}),
    next: next.map((d) => d.toISOString()),
    retry: retryPlan(sub),
  };
}

export async function readWorkspace(s: OpsSources, ref: WorkspaceRef): Promise<WorkspaceView> {
  const now = s.clock();
  const workspace = workspaceLabel(ref);
  const [subs, log] = await Promise.all([s.subscriptions.list(ref), s.log.read(now, 24)]);
  const rows = subs
    .map((sub) => subscriptionRow(sub, s.subscriptions.nextRuns(sub, 3)))
    .sort((a, b) => Number(b.retry !== null) - Number(a.retry !== null) || a.id.localeCompare(b.id));
  return {
    workspace,
    day: tallies(log.counts.filter((c) => c.workspace === workspace)).totals,
    subscriptions: rows,
    failures: log.failures.filter((f) => f.workspace === workspace),
  };
}
