import { WebClient } from "@slack/web-api";
import { type AccountSpec, DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { composeCore } from "../../src/app/compose.ts";
import { silentLogger } from "../../src/log.ts";
import * as ops from "../../src/slack/alerts/episode-ops.ts";
import { workspaceLabel } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { connectKey, type Harness, insertSubscription, REF, startHarness, until } from "./worker-harness.ts";

/**
 * One alert's world for tests that set the calendar: the app's clock, the worker's and the emulator's
 * today all read one instant the test moves; the alert's condition holds or not as the test picks the
 * account behind the workspace's key (the demo estate's week is 503–1,072 violations, a one-asset
 * account's 1–11, whatever the day, so `violations > 100` is met by one and never by the other);
 * clicks on its message go through the handlers of its buttons with the app's own services and a
 * Slack client of the stand-in; and Redis' clock can be moved on for the workspace's keys.
 */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

const QUIET_KEY = "alert-world-quiet";
const QUIET_ACCOUNT: AccountSpec = { apiKey: QUIET_KEY, assetCount: 1, scannerCount: 1 };
export const CONDITION = "when violations > 100";

/** An instant the test sets: the clock every part of the app under test reads. */
export interface Calendar {
  now(): Date;
  set(ms: number): void;
  /** The emulator's today (UTC). */
  day(): string;
}

export function calendar(start: number): Calendar {
  let at = start;
  return {
    now: () => new Date(at),
    set(ms) {
      at = ms;
    },
    day: () => new Date(at).toISOString().slice(0, 10),
  };
}

/**
 * Moves Redis' clock on by `ms` for every key matching `pattern`: a key whose time to live runs out
 * within it is deleted, the others keep what is left of theirs. Keys without an expiry are untouched.
 * Returns the keys that expired.
 */
export async function ageKeys(redis: RedisClient, pattern: string, ms: number): Promise<string[]> {
  const expired: string[] = [];
  for await (const page of scanKeys(redis, pattern))
    for (const key of new Set(page)) {
      const left = await redis.pttl(key);
      if (left < 0) continue;
      if (left <= ms) {
        await redis.del(key);
        expired.push(key);
      } else await redis.pexpire(key, left - ms);
    }
  return expired;
}

/** A person's click on one of the alert's controls, and what they were told privately. */
export type Click = (userId: string, value: string) => Promise<string[]>;

export interface AlertWorld {
  harness: Harness;
  cal: Calendar;
  /** A new alert subscription (`when violations > 100` on last7d, no drivers, no chart, UTC). */
  newAlert(fields?: Partial<Subscription>): Promise<Subscription>;
  /** The condition holds (the demo estate's key) or not (the one-asset account's). */
  data(met: boolean): Promise<void>;
  /**
   * Runs the check of the instant `at` (the calendar moves there) and waits until its job is done,
   * whatever it did (a paused alert records nothing). Returns the record as it stands then.
   */
  check(sub: Subscription, at: number): Promise<Subscription>;
  /** Starts the check of `at` without waiting; the promise is its end, as for `check`. */
  startCheck(sub: Subscription, at: number): { done: Promise<Subscription> };
  acknowledge: Click;
  snooze: Click;
  pause: Click;
  feedback: Click;
  /** The record of `sub` now. */
  record(sub: Subscription): Promise<Subscription | null>;
  /** Moves Redis' clock on by `ms` for the workspace's keys (see ageKeys). */
  age(ms: number): Promise<string[]>;
  close(): Promise<void>;
}

export async function alertWorld(o: { redisUrl: string; start: number }): Promise<AlertWorld> {
  const cal = calendar(o.start);
  const harness = await startHarness({
    redisUrl: o.redisUrl,
    emulator: { accounts: [QUIET_ACCOUNT], today: () => cal.day() },
  });
  // Posts and replies as fast as the test makes them: Slack's 1 a second per channel is not the subject.
  harness.slack.setRateLimit({ enabled: false });
  // No slot warm-up ahead of fires: the test's calendar is not the one BullMQ's schedulers run on. And
  // no pacing of the channel to Slack's one post a second: each check would wait for it.
  await harness.worker({
    clock: cal.now,
    config: { ...harness.config, slotWarmLeadMs: 0 },
    pacing: { channelPosts: { points: 1_000, durationSec: 1 } },
  });
  const producer = harness.producer(cal.now);
  const deps = composeCore({
    config: harness.config,
    logger: silentLogger(),
    redis: harness.redis,
    keyring: harness.config.keyring ?? [],
    prefix: harness.prefix,
    subscriptions: producer.subscriptions,
    clock: cal.now,
  });
  const client = new WebClient(DEMO.botToken, {
    slackApiUrl: harness.slack.apiUrl,
    retryConfig: { retries: 0 },
  });
  const clickWith =
    (handler: (ctx: Parameters<typeof ops.acknowledge>[0], raw: unknown) => Promise<unknown>): Click =>
    async (userId, value) => {
      const said: string[] = [];
      const ctx = {
        deps,
        ref: REF,
        client,
        log: silentLogger(),
        user: () => deps.users.get(REF, client, userId),
        reply: {
          notice: async (text: string) => void said.push(text),
          message: async () => undefined,
          error: async (err: unknown) => {
            throw err;
          },
        },
      };
      await handler(ctx, value);
      return said;
    };
  const startCheck = (sub: Subscription, at: number) => {
    cal.set(at);
    const period = periodOf(at);
    const data = { sub: `${workspaceLabel(REF)}.${sub.id}`, period, ch: sub.channelId };
    const done = (async () => {
      const job = await producer.queue.add("digest", data, { jobId: `${sub.id}-${period}` });
      await until(
        async () => {
          const state = await job.getState();
          if (state === "failed") throw new Error(`the check of ${period} failed: ${job.failedReason}`);
          // Done jobs are removed: a job no longer known is one that finished.
          return state === "completed" || state === "unknown";
        },
        30_000,
        `the check of ${period}`,
        10,
      );
      const fresh = await producer.store.get(REF, sub.id);
      if (!fresh) throw new Error(`alert ${sub.id} is gone`);
      return fresh;
    })();
    return { done };
  };
  return {
    harness,
    cal,
    newAlert: (fields = {}) =>
      insertSubscription(harness, {
        mode: "alert",
        condition: CONDITION,
        tz: "UTC",
        schedule: { kind: "daily" },
        drivers: false,
        chart: "off",
        ...fields,
      }),
    data: (met) => connectKey(harness, met ? DEMO_API_KEY : QUIET_KEY),
    check: (sub, at) => startCheck(sub, at).done,
    startCheck,
    acknowledge: clickWith(ops.acknowledge),
    snooze: clickWith(ops.snooze),
    pause: clickWith(ops.pause),
    feedback: clickWith(ops.feedback),
    record: (sub) => producer.store.get(REF, sub.id),
    age: (ms) => ageKeys(harness.redis, `${deps.keys.namespace(REF)}:*`, ms),
    async close() {
      await deps.close();
      await harness.close();
    },
  };
}
