import type { KeyScheme } from "../store/keys.ts";
import { workspaceLabel } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { runScript, script } from "../store/scripts.ts";
import { periodTime } from "../subscriptions/period.ts";
import type { LastDelivery, Subscription } from "../subscriptions/types.ts";
import { failureLabel } from "./failures.ts";

/**
 * A small log of delivery verdicts for operators (the /ops page, `insights-digest status`): per clock
 * hour, counts by (period, workspace, outcome, code) and the newest failures and skips with their
 * reasons. Bounded three ways: a field cap per hour (past it, verdicts count under `overflow`), a
 * length cap per list, and a TTL of about two days. It records what the subscription records already
 * say, so nothing depends on it: losing it loses only the operators' view of the past hours.
 */

/** A verdict as the log counts it: a post on time or late, a run with nothing to post, a failure. */
export type LogOutcome = "delivered" | "late" | "skipped" | "failed";

/** One counted group of verdicts. */
export interface LogCount {
  /** The delivery period (`20261102T080000Z`, or `send-…` for a test send). */
  period: string;
  /** The workspace label (`<enterprise|->.<team|->`). */
  workspace: string;
  outcome: LogOutcome;
  /** A failure's reason as a bounded code; `condition` or `alert` for skips; empty for posts. */
  code: string;
  n: number;
}

/** One failure or skip with what it said. */
export interface LogEntry {
  workspace: string;
  subId: string;
  period: string;
  outcome: "failed" | "skipped";
  /** The reason as stored on the subscription (a code for failures, words for skips), cut short. */
  reason: string;
  /** ISO instant of the verdict. */
  at: string;
}

/** What the log holds over some hours. */
export interface LogWindow {
  counts: LogCount[];
  /** Newest first. */
  failures: LogEntry[];
  /** Newest first. */
  skips: LogEntry[];
  /** Jobs BullMQ found stalled (their worker died or was starved) in these hours. */
  stalls: number;
  /** Verdicts past an hour's field cap: counted, not broken down. */
  overflow: number;
}

/** Options of createDeliveryLog; defaults in brackets. */
export interface DeliveryLogOptions {
  redis: RedisClient;
  keys: KeyScheme;
  /** A post more than this after its scheduled minute counts as late [300 s]. */
  lateAfterMs?: number;
  /** Distinct count fields per hour [5,000]. */
  maxFields?: number;
  /** Failures (and skips) kept per hour [200 each]. */
  maxEntries?: number;
  /** How long an hour's keys live after their last write [48 h]. */
  ttlSeconds?: number;
}

/** `YYYYMMDDTHH` of an instant, in UTC. */
export const hourOf = (t: Date | number): string =>
  new Date(t).toISOString().slice(0, 13).replace(/[-:]/g, "");

const STALL_FIELD = "stall";
const OVERFLOW_FIELD = "overflow";
const REASON_CHARS = 120;

// KEYS: counts, entries list (or the counts key again when there is no entry). ARGV: field, ttl s,
// max fields, entry ("" = none), max entries.
const NOTE = script(`
local f = ARGV[1]
if redis.call('hexists', KEYS[1], f) == 0 and redis.call('hlen', KEYS[1]) >= tonumber(ARGV[3]) then f = '${OVERFLOW_FIELD}' end
redis.call('hincrby', KEYS[1], f, 1)
redis.call('expire', KEYS[1], ARGV[2])
if ARGV[4] ~= '' then
  redis.call('lpush', KEYS[2], ARGV[4])
  redis.call('ltrim', KEYS[2], 0, tonumber(ARGV[5]) - 1)
  redis.call('expire', KEYS[2], ARGV[2])
end
return 1`);

/** How long after its scheduled minute a verdict came, in ms; null for test sends. */
export function latenessMs(last: Pick<LastDelivery, "period" | "at">): number | null {
  const due = periodTime(last.period);
  return due === null ? null : Math.max(0, Date.parse(last.at) - due.getTime());
}

/** The log's outcome and code of a verdict. */
export function logOutcome(
  sub: Pick<Subscription, "mode">,
  last: LastDelivery,
  lateAfterMs: number,
): { outcome: LogOutcome; code: string } {
  if (last.outcome === "failed") return { outcome: "failed", code: failureLabel(last.reason ?? "") };
  if (last.outcome === "skipped")
    return { outcome: "skipped", code: sub.mode === "alert" ? "alert" : "condition" };
  const late = latenessMs(last);
  return { outcome: late !== null && late > lateAfterMs ? "late" : "delivered", code: "" };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;

export function createDeliveryLog(o: DeliveryLogOptions) {
  const { redis, keys } = o;
  const lateAfterMs = o.lateAfterMs ?? 300_000;
  const maxFields = o.maxFields ?? 5_000;
  const maxEntries = o.maxEntries ?? 200;
  const ttl = o.ttlSeconds ?? 48 * 3600;

  return {
    lateAfterMs,
    /** Counts one verdict of `sub` (as its record now says, in `last`). */
    async note(sub: Pick<Subscription, "ref" | "id" | "mode">, last: LastDelivery): Promise<void> {
      const at = Date.parse(last.at);
      const k = keys.deliveryLog(hourOf(at));
      const workspace = workspaceLabel(sub.ref);
      const { outcome, code } = logOutcome(sub, last, lateAfterMs);
      const field = [last.period, workspace, outcome, code].join("|");
      const listed = last.outcome === "failed" || last.outcome === "skipped";
      const entry: LogEntry | null = listed
        ? {
            workspace,
            subId: sub.id,
            period: last.period,
            outcome: last.outcome as LogEntry["outcome"],
            reason: (last.reason ?? "").slice(0, REASON_CHARS),
            at: last.at,
          }
        : null;
      const list = last.outcome === "failed" ? k.failures : k.skips;
      const writes: Promise<unknown>[] = [
        runScript(
          redis,
          NOTE,
          [k.counts, entry ? list : k.counts],
          [field, ttl, maxFields, entry ? JSON.stringify(entry) : "", maxEntries],
        ),
      ];
      // Another slot on a cluster: a write of its own, not part of the hour's script.
      if (last.outcome === "failed") {
        const failing = keys.failingWorkspaces();
        writes.push(
          redis
            .multi()
            .zadd(failing, at, workspace)
            .zremrangebyscore(failing, "-inf", at - ttl * 1000)
            .expire(failing, ttl)
            .exec(),
        );
      }
      await Promise.all(writes);
    },
    /** Counts a job BullMQ found stalled. */
    async stalled(now: Date): Promise<void> {
      const k = keys.deliveryLog(hourOf(now));
      await redis.multi().hincrby(k.counts, STALL_FIELD, 1).expire(k.counts, ttl).exec();
    },
    /** Workspaces with a failure recorded at or after `sinceMs`. */
    failingWorkspaces(sinceMs: number): Promise<number> {
      return redis.zcount(keys.failingWorkspaces(), sinceMs, "+inf");
    },
    /** The log's hours from `hours - 1` hours before `now`'s hour to that hour, summed. */
    async read(now: Date, hours = 24): Promise<LogWindow> {
      const out: LogWindow = { counts: [], failures: [], skips: [], stalls: 0, overflow: 0 };
      const start = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
      const ks = Array.from({ length: hours }, (_, i) => keys.deliveryLog(hourOf(start - i * 3_600_000)));
      const parse = (s: string): LogEntry | null => {
        try {
          return JSON.parse(s) as LogEntry;
        } catch {
          return null;
        }
      };
      // Hours one by one: on a cluster each lives in a slot of its own.
      const read = await Promise.all(
        ks.map(async (k) => {
          const [counts, failures, skips] = await Promise.all([
            redis.hgetall(k.counts),
            redis.lrange(k.failures, 0, -1),
            redis.lrange(k.skips, 0, -1),
          ]);
          return { counts, failures, skips };
        }),
      );
      for (const hour of read) {
        for (const [field, value] of Object.entries(hour.counts)) {
          const n = Number(value) || 0;
          if (field === STALL_FIELD) out.stalls += n;
          else if (field === OVERFLOW_FIELD) out.overflow += n;
          else {
            const [period, workspace, outcome, code] = field.split("|");
            if (!period || !workspace || !outcome) continue;
            out.counts.push({ period, workspace, outcome: outcome as LogOutcome, code: code ?? "", n });
          }
        }
        for (const s of hour.failures) {
          const e = parse(s);
          if (e) out.failures.push(e);
        }
        for (const s of hour.skips) {
          const e = parse(s);
          if (e) out.skips.push(e);
        }
      }
      return out;
    },
  };
}
