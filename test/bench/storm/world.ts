import { randomBytes } from "node:crypto";
import { buildAccount } from "../../../sandbox/analytics/index.ts";
import { type PrivateRedis, startPrivateRedis } from "../../../sandbox/redis.ts";
import { type PrivateRedisCluster, startPrivateRedisCluster } from "../../../sandbox/redis-cluster.ts";
import type { WorkspaceSeed } from "../../../sandbox/slack/types.ts";
import { connectRedis } from "../../../src/app/redis.ts";
import { parseKeyring } from "../../../src/config.ts";
import { groupAssets } from "../../../src/insights/asset-groups.ts";
import { parseRange } from "../../../src/insights/ranges.ts";
import type { SubscriptionRuntime } from "../../../src/jobs/runtime.ts";
import { silentLogger } from "../../../src/log.ts";
import { createApiKeyStore } from "../../../src/store/api-keys.ts";
import type { WorkspaceRef } from "../../../src/store/keys.ts";
import type { RedisClient } from "../../../src/store/redis-client.ts";
import { compactRef, newSubscriptionId } from "../../../src/subscriptions/ids.ts";
import { slotOf } from "../../../src/subscriptions/slots.ts";
import type { Subscription } from "../../../src/subscriptions/types.ts";
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
  /**
   * Subscriptions of each workspace, `workspaces` long, summing to `subscriptions`: an install whose
   * workspaces differ in size [an even spread]. Each workspace then has channels of its own count,
   * `subsPerChannel` subscriptions sharing each (`channelsPerWorkspace` is not used).
   */
  sizes?: number[];
  /** With `sizes`: subscriptions sharing a channel [2]. */
  subsPerChannel?: number;
  /** Distinct analytics accounts: workspace w saves account w mod `accounts`'s key [one per workspace]. */
  accounts?: number;
  /**
   * Ranges and filters as teams pick them (a few common ranges, a share of team channels narrowed
   * to an asset group or a scanner) [each subscription a range of its own, no filter: no two share a
   * cached reply].
   */
  mixed?: boolean;
  /** People per workspace besides its owner, for interactive requests [none]. */
  people?: number;
  /** The store's key prefix [bench]; a world a product process started from the CLI shares needs the product's own. */
  prefix?: string;
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
  spec: Required<Pick<WorldSpec, "subscriptions" | "workspaces" | "channelsPerWorkspace" | "latencyMs">> &
    Omit<WorldSpec, "subscriptions" | "workspaces" | "channelsPerWorkspace" | "latencyMs">;
  /** Filled by createSubscriptions. */
  subs: SubRecord[];
  close(): Promise<void>;
}

const QUEUE_PREFIX = "{insights}";
const pad = (n: number, w: number) => n.toString(36).toUpperCase().padStart(w, "0");
export const teamOf = (w: number) => `TB${pad(w, 5)}`;
export const ownerOf = (w: number) => `UB${pad(w, 5)}OWN`;
/** Person p (from 0) of workspace w besides its owner. */
export const personOf = (w: number, p: number) => `UB${pad(w, 5)}P${pad(p, 2)}`;
export const channelOf = (w: number, c: number) => `CB${pad(w, 5)}X${pad(c, 2)}`;
/** Workspace w's API key in this world: its own, its account's (`accounts`), or workspace 0's for all (`oneKey`). */
export const keyOf = (spec: Pick<WorldSpec, "oneKey" | "accounts">, w: number) =>
  `bench-key-${teamOf(spec.oneKey ? 0 : spec.accounts ? w % spec.accounts : w)}`;

const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "America/Los_Angeles"];

/** Channels of workspace w: the world's count, or with `sizes` its own (`subsPerChannel` sharing each). */
function channelsOf(spec: WorldSpec, channels: number, w: number): number {
  const size = spec.sizes?.[w];
  return size === undefined ? channels : Math.max(1, Math.ceil(size / (spec.subsPerChannel ?? 2)));
}

function seeds(spec: WorldSpec, channels: number): WorkspaceSeed[] {
  return Array.from({ length: spec.workspaces }, (_, w) => workspaceSeed(spec, channels, w));
}

/** Workspace w as the Slack stand-in is seeded with it (`channels`: the world's count per workspace). */
export function workspaceSeed(spec: WorldSpec, channels: number, w: number): WorkspaceSeed {
  return {
    teamId: teamOf(w),
    name: `Bench ${w}`,
    botToken: benchToken({ teamId: teamOf(w) }),
    botUserId: `UB${pad(w, 5)}BOT`,
    botId: `BB${pad(w, 5)}BOT`,
    installerUserId: ownerOf(w),
    users: [
      { id: ownerOf(w), name: `owner${w}`, isAdmin: true },
      ...Array.from({ length: spec.people ?? 0 }, (_, p) => ({
        id: personOf(w, p),
        name: `person${w}-${p}`,
        tz: ZONES[(w + p) % ZONES.length],
        isAdmin: false,
      })),
    ],
    channels: Array.from({ length: channelsOf(spec, channels, w) }, (_, c) => ({
      id: channelOf(w, c),
      name: `digests-${c}`,
    })),
  };
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
  const prefix = spec.prefix ?? "bench";
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

/** Ranges teams pick (`mixed`): the week most often, then the month. */
const MIXED_RANGES = [
  "last7d",
  "last7d",
  "last7d",
  "lastweek",
  "last30d",
  "last30d",
  "last14d",
  "lastmonth",
  "last90d",
  "thismonth",
];

/** An account's top-level asset group names and scanner ids (the emulator's catalogue is a pure function of the key). */
export function catalogue(apiKey: string): { groups: string[]; scanners: string[] } {
  const account = buildAccount({ apiKey });
  return {
    groups: groupAssets(account.assets).map((g) => g.name),
    scanners: account.scanners.map((s) => s.value),
  };
}

/**
 * Subscription k of workspace w: a range of its own, no filter (no two share a cached reply); or,
 * `mixed`, a common range, a fifth of them narrowed to one asset group and a tenth to one scanner.
 */
function choiceOf(
  spec: WorldSpec,
  w: number,
  k: number,
  lists: (apiKey: string) => { groups: string[]; scanners: string[] },
): Pick<Subscription, "range" | "assetGroups"> & Partial<Pick<Subscription, "scannerIds">> {
  if (!spec.mixed) return { range: `last${7 + (k % 300)}d` };
  const range = MIXED_RANGES[(w + k) % MIXED_RANGES.length] as string;
  const share = (k * 37 + w * 11) % 100;
  const { groups, scanners } = lists(keyOf(spec, w));
  if (share < 20 && groups.length > 0) return { range, assetGroups: [groups[k % groups.length] as string] };
  if (share < 30 && scanners.length > 0)
    return { range, scannerIds: [scanners[k % scanners.length] as string] };
  return { range };
}

/** Where subscription i goes: workspace and its place there (an even spread, or `sizes`). */
function layout(spec: WorldSpec): (i: number) => [number, number] {
  const sizes = spec.sizes;
  if (!sizes) return (i) => [i % spec.workspaces, Math.floor(i / spec.workspaces)];
  const ws = new Int32Array(spec.subscriptions);
  const ks = new Int32Array(spec.subscriptions);
  let i = 0;
  sizes.forEach((size, w) => {
    for (let k = 0; k < size && i < ws.length; k++, i++) {
      ws[i] = w;
      ks[i] = k;
    }
  });
  if (i !== spec.subscriptions) throw new Error(`sizes add up to ${i}, not ${spec.subscriptions}`);
  return (j) => [ws[j] ?? 0, ks[j] ?? 0];
}

/**
 * Creates the subscriptions as `subscriptions.create()` stores them (record, index, slot membership;
 * each workspace registered in the slot and the slot's one scheduler),
 * without its validation and five-run preview (cron-parser with a zone costs ms per step, which would
 * make setting up 10,000 slower than the storm). Every one is a daily cron firing at the same second,
 * `fireAt`; unless `mixed`, subscriptions of one workspace ask for different ranges, so no two share a
 * cached reply and each delivery makes its own GraphQL request, as the bare loop does.
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
  const place = layout(spec);
  const lists = new Map<string, { groups: string[]; scanners: string[] }>();
  const listsOf = (apiKey: string) => {
    let l = lists.get(apiKey);
    if (!l) {
      l = catalogue(apiKey);
      lists.set(apiKey, l);
    }
    return l;
  };
  await inParallel(shuffled(spec.subscriptions), 32, async (i) => {
    const [w, k] = place(i);
    const ref = compactRef({ teamId: teamOf(w) });
    const choice = choiceOf(spec, w, k, listsOf);
    const range = choice.range;
    const channelId = channelOf(w, k % channelsOf(spec, spec.channelsPerWorkspace, w));
    const sub = storedSubscription({
      id: newSubscriptionId(),
      ref,
      ownerId: ownerOf(w),
      channelId,
      schedule: { kind: "cron", expression },
      ...choice,
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
