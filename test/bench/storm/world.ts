import { randomBytes } from "node:crypto";
import { type PrivateRedis, startPrivateRedis } from "../../../sandbox/redis.ts";
import { type PrivateRedisCluster, startPrivateRedisCluster } from "../../../sandbox/redis-cluster.ts";
import type { WorkspaceSeed } from "../../../sandbox/slack/types.ts";
import { connectRedis } from "../../../src/app/redis.ts";
import { parseKeyring } from "../../../src/config.ts";
import { parseRange } from "../../../src/insights/ranges.ts";
import type { SubscriptionRuntime } from "../../../src/jobs/runtime.ts";
import { silentLogger } from "../../../src/log.ts";
import { createApiKeyStore } from "../../../src/store/api-keys.ts";
import type { WorkspaceRef } from "../../../src/store/keys.ts";
import type { RedisClient } from "../../../src/store/redis-client.ts";
import { compactRef, newSubscriptionId } from "../../../src/subscriptions/ids.ts";
import { slotOf } from "../../../src/subscriptions/slots.ts";
import { quietRuntime } from "../../fixtures/runtime.ts";
import { storedSubscription } from "../../fixtures/subscription.ts";
import { type Child, spawnChild } from "../child.ts";
import type { ServicesStart } from "./services.ts";
import { benchToken } from "./worker-child.ts";

/**
 * The storm's world: a dedicated Redis (AOF on), the services process (emulator + Slack stand-in with
 * one seeded workspace per tenant), an API key per workspace stored the app's way, and subscriptions
 * created through the subscription service, each with its BullMQ job scheduler.
 */

export interface WorldSpec {
  subscriptions: number;
  workspaces: number;
  /** Channels per workspace; subscriptions share them round-robin [2 subscriptions per channel]. */
  channelsPerWorkspace?: number;
  latencyMs: number;
  /** Retry policy written into every scheduler [production default: 5 attempts, 30 s backoff]. */
  policy?: { attempts: number; backoffMs: number };
  /** A private 3-master Redis Cluster instead of one redis-server. */
  cluster?: boolean;
  /** Slack in front of a pass-through that can throttle one workspace. */
  throttleable?: boolean;
  /** The subscriptions' "why it changed" [on, the default]; off to compare a storm without drivers. */
  drivers?: boolean;
  /**
   * Every workspace saves the same API key: one analytics account shared by all of them, as an
   * Enterprise Grid org's workspaces share the org's key [off: a key, and an account, per workspace].
   */
  oneKey?: boolean;
}

export interface SubRecord {
  ref: WorkspaceRef;
  id: string;
  channelId: string;
  apiKey: string;
  from: string;
  to: string;
}

/** What a fault does to Redis: one server, or one master of the cluster. */
export interface WorldRedis {
  url: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

function singleRedis(r: PrivateRedis): WorldRedis {
  return r;
}

function clusterRedis(c: PrivateRedisCluster): WorldRedis {
  return {
    url: c.url,
    stop: (signal) => c.stopNode(0, signal),
    restart: () => c.restartNode(0),
    destroy: () => c.destroy(),
  };
}

export interface World {
  redis: WorldRedis;
  conn: RedisClient;
  services: Child;
  runtime: SubscriptionRuntime;
  prefix: string;
  queueName: string;
  queuePrefix: string;
  /** Environment of a worker process (loadConfig reads it). */
  env: Record<string, string>;
  urls: { graphqlUrl: string; apiUrl: string };
  spec: Required<Omit<WorldSpec, "policy" | "cluster" | "throttleable" | "drivers" | "oneKey">> &
    Pick<WorldSpec, "policy" | "cluster" | "throttleable" | "drivers" | "oneKey">;
  /** Filled by createSubscriptions. */
  subs: SubRecord[];
  close(): Promise<void>;
}

const QUEUE_PREFIX = "{insights}";
const pad = (n: number, w: number) => n.toString(36).toUpperCase().padStart(w, "0");
export const teamOf = (w: number) => `TB${pad(w, 5)}`;
const ownerOf = (w: number) => `UB${pad(w, 5)}OWN`;
const channelOf = (w: number, c: number) => `CB${pad(w, 5)}X${pad(c, 2)}`;
/** Workspace w's API key in this world: its own, or workspace 0's for all (`oneKey`). */
const keyOf = (spec: Pick<WorldSpec, "oneKey">, w: number) => `bench-key-${teamOf(spec.oneKey ? 0 : w)}`;

function seeds(spec: WorldSpec, channels: number): WorkspaceSeed[] {
  return Array.from({ length: spec.workspaces }, (_, w) => ({
    teamId: teamOf(w),
    name: `Bench ${w}`,
    botToken: benchToken({ teamId: teamOf(w) }),
    users: [{ id: ownerOf(w), name: `owner${w}`, isAdmin: true }],
    channels: Array.from({ length: channels }, (_, c) => ({ id: channelOf(w, c), name: `digests-${c}` })),
  }));
}

/** Runs `fn` over `items` with `n` in flight. */
export async function inParallel<T>(
  items: T[],
  n: number,
  fn: (item: T, i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) await fn(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: n }, lane));
}

/** Builds the world without subscriptions (see createSubscriptions). */
export async function buildWorld(spec: WorldSpec, extraEnv: Record<string, string> = {}): Promise<World> {
  const perWorkspace = Math.ceil(spec.subscriptions / spec.workspaces);
  const channels = spec.channelsPerWorkspace ?? Math.max(1, Math.ceil(perWorkspace / 2));
  const redis = spec.cluster
    ? clusterRedis(await startPrivateRedisCluster(3))
    : singleRedis(await startPrivateRedis());
  // The stand-ins run as a production service would: graphql-js outside production checks every
  // type test for a second copy of itself, which cost the emulator about a fifth of its CPU in a storm
  // with drivers (CPU this 2-core machine's worker shares, and a real service's never is).
  const services = spawnChild(new URL("./services.ts", import.meta.url), { NODE_ENV: "production" });
  const workspaces = seeds(spec, channels);

  const start: ServicesStart = {
    workspaces,
    apiKeys: [...new Set(workspaces.map((_, w) => keyOf(spec, w)))],
    latencyMs: spec.latencyMs,
    perChannelPerSecond: 1,
    throttleable: spec.throttleable,
  };
  const urls = await services.call<{ graphqlUrl: string; apiUrl: string }>("start", start);
  const keyringText = `k1:${randomBytes(32).toString("base64")}`;
  const prefix = "bench";
  const queueName = "deliveries";
  const env = {
    REDIS_URL: redis.url,
    ENCRYPTION_KEYS: keyringText,
    ANALYTICS_GRAPHQL_URL: urls.graphqlUrl,
    SLACK_API_URL: urls.apiUrl,
    SLACK_BOT_TOKEN: "xoxb-bench-default",
    QUEUE_PREFIX,
    CHARTS: "off",
    LOG_LEVEL: "silent",
    // Slots are warmed this long before they fire (the product's default is 15 s; a lead of 1 s ticks
    // every 250 ms): runStorm fires this much later than its set-up needs, so a storm sees the
    // warm-up it would in production, with less time for it than production gives.
    SLOT_WARM_LEAD_SECONDS: "1",
    ...extraEnv,
  };
  const conn = connectRedis(redis.url, silentLogger(), "worker");
  const apiKeys = createApiKeyStore({ redis: conn, keyring: parseKeyring(keyringText), prefix });
  const savedAt = new Date().toISOString();
  await inParallel(workspaces, 32, (_, w) =>
    apiKeys.save({ teamId: teamOf(w) }, keyOf(spec, w), { savedBy: ownerOf(w), savedAt }),
  );
  const runtime = quietRuntime(conn, { queuePrefix: QUEUE_PREFIX, prefix, queueName, policy: spec.policy });
  return {
    redis,
    conn,
    services,
    runtime,
    prefix,
    queueName,
    queuePrefix: QUEUE_PREFIX,
    env,
    urls,
    subs: [],
    spec: { ...spec, channelsPerWorkspace: channels },
    async close() {
      await runtime.close().catch(() => undefined);
      await conn.quit().catch(() => conn.disconnect());
      await services.call("close").catch(() => undefined);
      await services.kill();
      await redis.destroy();
    },
  };
}

/**
 * 0..n-1 in a fixed pseudo-random order: creation order decides the order in which jobs due at the
 * same instant run, and real subscriptions of one channel are not created next to each other, nor
 * evenly spread.
 */
function shuffled(n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  let seed = 0x2545f491;
  for (let i = n - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

/**
 * Creates the subscriptions as `subscriptions.create()` stores them (record, index, slot membership;
 * each workspace registered in the slot and the slot's one scheduler),
 * without its validation and five-run preview (cron-parser with a zone costs ms per step, which would
 * make setting up 10,000 slower than the storm). Every one is a daily cron firing at the same second,
 * `fireAt`; subscriptions of one workspace ask for different ranges, so no two share a cached reply
 * and each delivery makes its own GraphQL request, as the bare loop does.
 */
export async function createSubscriptions(
  world: Pick<World, "spec" | "runtime" | "subs">,
  fireAt: Date,
): Promise<void> {
  const { spec } = world;
  const expression = `${fireAt.getUTCSeconds()} ${fireAt.getUTCMinutes()} ${fireAt.getUTCHours()} * * *`;
  const now = new Date();
  const createdAt = now.toISOString();
  const slot = slotOf({ schedule: { kind: "cron", expression }, time: "09:00", tz: "UTC", status: "active" });
  if (!slot) throw new Error("unreachable");
  // Registered first, as create() does: a member is never written into a slot nobody fires.
  await inParallel(
    Array.from({ length: spec.workspaces }, (_, w) => w),
    32,
    (w) => world.runtime.registry.join(slot.id, { teamId: teamOf(w) }),
  );
  await world.runtime.scheduler.ensureSlot(slot);
  await inParallel(shuffled(spec.subscriptions), 32, async (i) => {
    const w = i % spec.workspaces;
    const k = Math.floor(i / spec.workspaces);
    const ref = compactRef({ teamId: teamOf(w) });
    const range = `last${7 + (k % 300)}d`;
    const channelId = channelOf(w, k % spec.channelsPerWorkspace);
    const sub = storedSubscription({
      id: newSubscriptionId(),
      ref,
      ownerId: ownerOf(w),
      channelId,
      schedule: { kind: "cron", expression },
      range,
      createdAt,
      ...(spec.drivers === false ? { drivers: false } : {}),
    });
    await world.runtime.store.insert(sub);
    const resolved = parseRange(range, { now, tz: "UTC" });
    world.subs.push({
      ref,
      id: sub.id,
      channelId,
      apiKey: keyOf(spec, w),
      from: resolved.from,
      to: resolved.to,
    });
  });
}
