import { randomBytes, randomUUID } from "node:crypto";
import {
  DEMO_API_KEY,
  type Emulator,
  type EmulatorOptions,
  startEmulator,
} from "../../sandbox/analytics/index.ts";
import { DEMO, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import { capturingLogger } from "../../sandbox/stack.ts";
import { startWorker, type WorkerHandle, type WorkerOptions } from "../../src/app/worker.ts";
import { type Clock, utcDayOf } from "../../src/clock.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { createSubscriptionRuntime, type SubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme, type WorkspaceRef, workspaceLabel } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { newSubscriptionId } from "../../src/subscriptions/ids.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { quietTime, storedSubscription } from "../fixtures/subscription.ts";
import { connect } from "../setup/backends.ts";
import { testClock } from "../setup/test-clock.ts";

/**
 * One isolated world per test: its own Slack stand-in and analytics emulator, a unique Redis key
 * prefix and queue name on the shared test Redis (or a private one), the demo API key connected.
 * Workers run in-process with short backoffs and leases so failure paths take milliseconds.
 */
export const REF: WorkspaceRef = { teamId: DEMO.teamId };
export const OWNER = DEMO.admin;
export const OWNER_DM = `D${DEMO.admin.slice(1)}`;

/**
 * Worker settings for tests: fast retries, short claim leases, every-second crons allowed. BullMQ's
 * job locks keep their production length here: a 2 s lock is lost whenever a loaded machine keeps
 * the event loop busy for a second (a chart render, a GC pause), and BullMQ then runs the "stalled"
 * job a second time, which is a crash the test never staged.
 */
export const FAST: Partial<WorkerOptions> = {
  policy: { attempts: 3, backoffMs: 100 },
  analyticsRetry: { attempts: 1 },
  insightsErrorTtlMs: 1,
  insightsLockMs: 2_000,
  claims: { leaseMs: 3_000 },
  locks: { lockDuration: 30_000, stalledInterval: 30_000 },
  limits: { minIntervalMs: 0 },
  healthPort: null,
};

/**
 * For a worker the test will kill: its jobs' locks run out 2 s after it dies, so the worker that
 * takes over finds them stalled within seconds. It never looks for stalled jobs itself. Alive on a
 * loaded machine, it loses some of its own 2 s locks (a busy event loop misses a renewal); each loss
 * it found would count as a stall, and with the kill's that can make three, past BullMQ's limit:
 * BullMQ then fails the job without running it ("job stalled more than allowable limit") and the
 * worker adds it again (stalled.ts), a detour this test does not mean to take. With nobody checking
 * until the kill, the kill is the one stall.
 */
export const CRASH: Partial<WorkerOptions> = {
  ...FAST,
  locks: { lockDuration: 2_000, stalledInterval: 1_000, skipStalledCheck: true },
};

/**
 * For the worker that survives a crash: it looks for stalled jobs every second, and holds its own
 * jobs' locks for the production length, which a loaded machine does not lose (see FAST).
 */
export const TAKEOVER: Partial<WorkerOptions> = {
  ...FAST,
  locks: { lockDuration: 30_000, stalledInterval: 1_000 },
};

export interface Harness {
  redisUrl: string;
  redis: RedisClient;
  slack: SlackStandIn;
  emulator: Emulator;
  prefix: string;
  queueName: string;
  config: Config;
  /** The environment a worker process would get (for child processes). */
  env: Record<string, string>;
  /** The calendar's clock of this world: the workers' and the emulator's (testClock()). */
  clock: Clock;
  /** A producer, as the web process builds it (fail-fast connection). */
  producer(clock?: () => Date): SubscriptionRuntime;
  worker(overrides?: Partial<WorkerOptions>): Promise<WorkerHandle>;
  /** Claims of the harness's workspace: `<period>/<subId>` → value. */
  claims(): Promise<Record<string, string>>;
  /**
   * Another workspace in the stand-in, with `channels` channels (bot in) and the demo API key
   * connected; workers of this harness get its bot token.
   */
  addWorkspace(
    teamId: string,
    channels?: number,
  ): Promise<{ ref: WorkspaceRef; token: string; channels: string[] }>;
  close(): Promise<void>;
}

export async function startHarness(o: {
  redisUrl: string;
  prefix?: string;
  queueName?: string;
  clock?: Clock;
  /** The emulator's accounts (its today is the harness clock's unless given here). */
  emulator?: EmulatorOptions;
}): Promise<Harness> {
  const id = randomUUID().slice(0, 8);
  const clock = o.clock ?? testClock();
  const prefix = o.prefix ?? `t-worker-${id}`;
  const queueName = o.queueName ?? `deliveries-${id}`;
  const emulator = await startEmulator({ today: () => utcDayOf(clock), ...o.emulator });
  const slack = await startSlackStandIn({
    signingSecret: "test-signing-secret",
    appUrl: "http://127.0.0.1:9/slack/events",
  });
  const env = {
    REDIS_URL: o.redisUrl,
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
    SLACK_BOT_TOKEN: DEMO.botToken,
    SLACK_API_URL: slack.apiUrl,
    WORKER_CONCURRENCY: "4",
    LOG_LEVEL: "silent",
  };
  const config = loadConfig("worker", env);
  const redis = connect(o.redisUrl);
  await createApiKeyStore({ redis, keyring: config.keyring ?? [], prefix }).save(REF, DEMO_API_KEY, {
    savedBy: OWNER,
    savedAt: new Date().toISOString(),
  });
  const closers: (() => Promise<unknown>)[] = [];
  const keys = createKeyScheme({ prefix });
  const tokens = new Map<string, string>([[DEMO.teamId, DEMO.botToken]]);
  const apiKeys = createApiKeyStore({ redis, keyring: config.keyring ?? [], prefix });
  return {
    redisUrl: o.redisUrl,
    redis,
    slack,
    emulator,
    prefix,
    queueName,
    config,
    env,
    clock,
    producer(producerClock = clock) {
      const conn = connect(o.redisUrl, "client");
      const rt = createSubscriptionRuntime({
        redis: conn,
        queuePrefix: config.queuePrefix,
        logger: silentLogger(),
        prefix,
        queueName,
        clock: producerClock,
        policy: FAST.policy,
        limits: FAST.limits,
      });
      closers.push(async () => {
        await rt.close();
        await conn.quit().catch(() => conn.disconnect());
      });
      // Created without a time, a subscription would fire at 09:00 for real while a test runs then.
      const create = rt.subscriptions.create.bind(rt.subscriptions);
      rt.subscriptions.create = (ref, input, userId) =>
        create(
          ref,
          { ...input, time: input.time ?? quietTime(input.schedule ?? { kind: "daily" }, input.tz) },
          userId,
        );
      return rt;
    },
    async worker(overrides = {}) {
      const conn = connect(o.redisUrl);
      const handle = await startWorker({
        config,
        // Kept in memory (and in INSIGHTS_TEST_LOG_DIR when set), so a run's logs can be searched.
        logger: capturingLogger("debug").logger,
        redis: conn,
        prefix,
        queueName,
        tokenFor: async (ref) => tokens.get(ref.teamId ?? "") ?? DEMO.botToken,
        clock,
        ...FAST,
        ...overrides,
      });
      closers.push(async () => {
        await handle.close();
        await conn.quit().catch(() => conn.disconnect());
      });
      return handle;
    },
    async claims() {
      const out: Record<string, string> = {};
      for await (const page of scanKeys(redis, `${keys.namespace(REF)}:claims:*`))
        for (const k of page) {
          const period = k.slice(k.lastIndexOf(":") + 1);
          for (const [sub, v] of Object.entries(await redis.hgetall(k))) out[`${period}/${sub}`] = v;
        }
      return out;
    },
    async addWorkspace(teamId, channels = 1) {
      const token = `xoxb-${teamId.toLowerCase()}-standin`;
      const ids = Array.from(
        { length: channels },
        (_, i) => `C${teamId.slice(1)}X${String(i).padStart(2, "0")}`,
      );
      slack.addWorkspace({
        teamId,
        name: teamId,
        botToken: token,
        users: [{ id: `U${teamId.slice(1)}A`, name: "admin", isAdmin: true }],
        channels: ids.map((id, i) => ({ id, name: `digests-${i}` })),
      });
      tokens.set(teamId, token);
      const ref = { teamId };
      await apiKeys.save(ref, DEMO_API_KEY, { savedBy: OWNER, savedAt: new Date().toISOString() });
      return { ref, token, channels: ids };
    },
    async close() {
      for (const c of closers.reverse()) await c().catch(() => undefined);
      await slack.close();
      await emulator.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * A daily subscription as create() stores it (without its preview and per-workspace cap), at a time
 * that does not fire during the test unless `fields` names one.
 */
export function subscriptionRecord(
  ref: WorkspaceRef,
  channelId: string,
  fields: Partial<Subscription> = {},
): Subscription {
  const schedule = fields.schedule ?? { kind: "daily" };
  return storedSubscription({
    id: "",
    ref,
    ownerId: OWNER,
    channelId,
    schedule,
    time: quietTime(schedule, fields.tz),
    ...fields,
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls every `pollMs` until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function until<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 10_000,
  what = "condition",
  pollMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(pollMs);
  }
}

/** Waits until subscription `id` records a delivery of `period`, and returns it as stored then. */
export function deliveryRecorded(
  subscriptions: { get(ref: WorkspaceRef, id: string): Promise<Subscription | null> },
  id: string,
  period: string,
  timeoutMs: number,
): Promise<Subscription> {
  return until(
    async () => {
      const s = await subscriptions.get(REF, id);
      return s?.lastDelivery?.period === period ? s : undefined;
    },
    timeoutMs,
    `the delivery of ${period} recorded`,
  );
}

/** An hourly subscription of the harness's workspace in #security, stored as create() stores it. */
export async function insertSubscription(
  harness: Harness,
  fields: Partial<Subscription>,
): Promise<Subscription> {
  const sub = subscriptionRecord(REF, DEMO.security, {
    id: newSubscriptionId(),
    schedule: { kind: "hourly" },
    ...fields,
  });
  await harness.producer().store.insert(sub);
  return sub;
}

/** Enqueues the check of `period` (`copies` times, as duplicated fan-outs would) and waits for its verdict. */
export async function runCheck(harness: Harness, sub: Subscription, period: string, copies = 1) {
  const { queue, store } = harness.producer();
  const data = { sub: `${workspaceLabel(REF)}.${sub.id}`, period, ch: sub.channelId };
  for (let c = 0; c < copies; c++) await queue.add("digest", data, { jobId: `${sub.id}-${period}-${c}` });
  return until(
    async () => {
      const fresh = await store.get(REF, sub.id);
      return fresh?.lastDelivery?.period === period ? fresh : undefined;
    },
    20_000,
    `the verdict of ${period}`,
  );
}

/** Connects another key, as the connect modal does: stored, and the workspace's cached replies dropped. */
export async function connectKey(harness: Harness, apiKey: string): Promise<void> {
  const keys = createKeyScheme({ prefix: harness.prefix });
  await createApiKeyStore({
    redis: harness.redis,
    keyring: harness.config.keyring ?? [],
    prefix: harness.prefix,
  }).save(REF, apiKey, { savedBy: OWNER, savedAt: new Date().toISOString() });
  const cache = createInsightsCache({
    redis: harness.redis,
    keys,
    client: { insights: () => Promise.reject(new Error("not used")) },
    logger: silentLogger(),
  });
  await cache.invalidate(REF);
}
