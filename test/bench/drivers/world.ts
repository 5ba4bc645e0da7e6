import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { DEMO_API_KEY } from "../../../sandbox/analytics/index.ts";
import { type PrivateRedis, startPrivateRedis } from "../../../sandbox/redis.ts";
import { createAnalyticsClient } from "../../../src/analytics/client.ts";
import { parseKeyring } from "../../../src/config.ts";
import { createDigestService, type DigestService } from "../../../src/digests/digest-service.ts";
import { createDriversCache } from "../../../src/digests/drivers-cache.ts";
import { createDriversPlanner } from "../../../src/digests/drivers-planner.ts";
import { batchLimits, DEFAULT_DRIVERS, type DriversSettings } from "../../../src/digests/drivers-service.ts";
import { createFilterListsCache } from "../../../src/digests/filter-lists.ts";
import { createInsightsCache } from "../../../src/digests/insights-cache.ts";
import { sharedBatcher } from "../../../src/digests/slices-batcher.ts";
import { silentLogger } from "../../../src/log.ts";
import { createApiKeyStore } from "../../../src/store/api-keys.ts";
import { createKeyScheme, type WorkspaceRef } from "../../../src/store/keys.ts";
import { type Child, spawnChild } from "../child.ts";
import type { EmulatorChildStart } from "./emulator-child.ts";

/**
 * The drivers bench's world: a private Redis, the emulator in a child process, and digest services
 * built the app's way (real client, real Redis cache with in-flight sharing), each on a fresh key
 * prefix so every measurement starts with a cold cache. `fetches` counts questions put to the cache;
 * the emulator counts the GraphQL requests that reached it.
 */

export const BIG_KEY = "bench-drivers-2400";
export const HUGE_KEY = "bench-drivers-10000";
export const accountKey = (i: number) => `bench-drivers-account-${i}`;

export interface DriversWorld {
  redis: PrivateRedis;
  conn: Redis;
  emulator: Child;
  graphqlUrl: string;
  requests(): Promise<number>;
  /** Reply bytes the emulator has sent so far. */
  bytes(): Promise<number>;
  /** CPU ms the emulator's process has used so far. */
  emulatorCpuMs(): Promise<number>;
  setLatency(ms: number): Promise<void>;
  /**
   * A digest service on a fresh prefix (every workspace `ref(i)` holds `keyOf(i)`), or, with `again`,
   * a new process's service on the prefix of an earlier one: caches in memory empty, what that one
   * left in Redis still there.
   */
  service(
    keys: { ref: WorkspaceRef; apiKey: string }[],
    settings?: Partial<DriversSettings>,
    again?: string,
  ): Promise<{ digests: DigestService; fetches(): number; prefix: string }>;
  close(): Promise<void>;
}

export async function buildDriversWorld(
  accounts: number,
  latencyMs: number,
  huge: boolean,
): Promise<DriversWorld> {
  const redis = await startPrivateRedis();
  const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
  conn.on("error", () => undefined);
  // As a production service runs it (graphql-js's development checks; see storm/world.ts).
  const emulator = spawnChild(new URL("./emulator-child.ts", import.meta.url), { NODE_ENV: "production" });
  const start: EmulatorChildStart = {
    accounts: [
      { apiKey: BIG_KEY, assetCount: 2_400 },
      ...(huge ? [{ apiKey: HUGE_KEY, assetCount: 10_000 }] : []),
      ...Array.from({ length: accounts }, (_, i) => ({ apiKey: accountKey(i) })),
    ],
    latencyMs,
  };
  const { graphqlUrl } = await emulator.call<{ graphqlUrl: string }>("start", start);
  const keyring = parseKeyring(`k1:${randomBytes(32).toString("base64")}`);
  // One client for every service (its introspection, asked once here, is not what the storms count).
  const client = createAnalyticsClient({ graphqlUrl, timeoutMs: 30_000, logger: silentLogger() });
  await client.introspect(DEMO_API_KEY);
  let n = 0;
  const caches: { close(): Promise<void> }[] = [];
  return {
    redis,
    conn,
    emulator,
    graphqlUrl,
    requests: () => emulator.call<number>("requests"),
    bytes: () => emulator.call<number>("bytes"),
    emulatorCpuMs: () => emulator.call<number>("cpuMs"),
    setLatency: async (ms) => {
      await emulator.call("setLatency", ms);
    },
    async service(keys, settings, again) {
      const prefix = again ?? `bench-drivers-${n++}`;
      const apiKeys = createApiKeyStore({ redis: conn, keyring, prefix });
      if (!again)
        for (const k of keys)
          await apiKeys.save(k.ref, k.apiKey, { savedBy: "UBENCH", savedAt: new Date().toISOString() });
      const drivers = { ...DEFAULT_DRIVERS, ...settings };
      // As compose.ts builds it: the digests' questions go through the slices' batcher.
      const inner = createInsightsCache({
        redis: conn,
        keys: createKeyScheme({ prefix }),
        client: sharedBatcher(client, batchLimits(drivers)),
        logger: silentLogger(),
      });
      // The app's shared computed-drivers cache, as compose.ts builds it (a secret of its own names the
      // accounts here): without it every digest would compute its drivers alone, which the app never does.
      const driversCache = createDriversCache({
        redis: conn,
        keys: createKeyScheme({ prefix }),
        secret: randomBytes(32),
        logger: silentLogger(),
      });
      caches.push(driversCache);
      let fetches = 0;
      const source = {
        fetch: (...args: Parameters<typeof inner.fetch>) => {
          fetches++;
          return inner.fetch(...args);
        },
        invalidate: inner.invalidate,
      };
      return {
        digests: createDigestService({
          apiKeys,
          insights: source,
          slices: client,
          driversCache,
          // And its planner: digests of an account asked together join one computation, as in the app.
          driversPlanner: createDriversPlanner(),
          drivers,
          logger: silentLogger(),
          filterLists: createFilterListsCache({ redis: conn, keys: createKeyScheme({ prefix }) }),
        }),
        fetches: () => fetches,
        prefix,
      };
    },
    async close() {
      await Promise.all(caches.map((c) => c.close().catch(() => undefined)));
      await emulator.call("close").catch(() => undefined);
      await emulator.kill();
      await conn.quit().catch(() => conn.disconnect());
      await redis.destroy();
    },
  };
}
