import { Redis } from "ioredis";
import { startPrivateRedis } from "../../../sandbox/redis.ts";
import { createSubscriptionRuntime } from "../../../src/jobs/runtime.ts";
import { silentLogger } from "../../../src/log.ts";
import { type MemoryFigures, measureMemory, usedMemory } from "./memory.ts";
import { createSubscriptions } from "./world.ts";

/**
 * Redis bytes per subscription on a Redis with `config` applied (CONFIG SET before any write), for
 * the same subscriptions a storm creates: what a deployment setting would change.
 */
export async function memoryWithConfig(o: {
  subscriptions: number;
  workspaces: number;
  config: Record<string, string>;
}): Promise<MemoryFigures & { config: Record<string, string> }> {
  const redis = await startPrivateRedis();
  const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
  conn.on("error", () => undefined);
  try {
    for (const [k, v] of Object.entries(o.config)) await conn.config("SET", k, v);
    const runtime = createSubscriptionRuntime({
      redis: conn,
      queuePrefix: "{insights}",
      logger: silentLogger(),
      prefix: "bench",
      queueName: "deliveries",
    });
    const before = await usedMemory(conn);
    const perWorkspace = Math.ceil(o.subscriptions / o.workspaces);
    const spec = {
      subscriptions: o.subscriptions,
      workspaces: o.workspaces,
      latencyMs: 100,
      channelsPerWorkspace: Math.ceil(perWorkspace / 2),
    };
    await createSubscriptions({ spec, runtime, subs: [] }, new Date(Date.now() + 3_600_000));
    const figures = await measureMemory({
      redis: conn,
      prefix: "bench",
      queueKeyPrefix: "{insights}:deliveries",
      subscriptions: o.subscriptions,
      before,
    });
    await runtime.close();
    return { ...figures, config: o.config };
  } finally {
    await conn.quit().catch(() => conn.disconnect());
    await redis.destroy();
  }
}
