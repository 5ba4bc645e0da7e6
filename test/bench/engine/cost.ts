import { Redis } from "ioredis";
import { DEMO_API_KEY, startEmulator } from "../../../sandbox/analytics/index.ts";
import { startPrivateRedis } from "../../../sandbox/redis.ts";
import { startPrivateRedisCluster } from "../../../sandbox/redis-cluster.ts";
import { startSlackStandIn } from "../../../sandbox/slack/index.ts";
import { connectRedis } from "../../../src/app/redis.ts";
import { startWorker } from "../../../src/app/worker.ts";
import { loadConfig, parseKeyring } from "../../../src/config.ts";
import { silentLogger } from "../../../src/log.ts";
import { createApiKeyStore } from "../../../src/store/api-keys.ts";
import { type RedisClient, scanTargets } from "../../../src/store/redis-client.ts";
import { compactRef, newSubscriptionId } from "../../../src/subscriptions/ids.ts";
import { slotOf } from "../../../src/subscriptions/slots.ts";
import type { Subscription } from "../../../src/subscriptions/types.ts";
import { quietRuntime } from "../../fixtures/runtime.ts";
import { storedSubscription } from "../../fixtures/subscription.ts";
import { serveRpc } from "../child.ts";
import { round, sleep } from "../stats.ts";

/**
 * Redis cost of one delivery, measured on the client: every command any connection of this process
 * sends (ioredis `sendCommand`, pipelines and MULTI included, BullMQ's own commands included), and
 * round trips counted as the batches a connection writes before it waits (commands sent in the same
 * tick on one connection go out together). One worker, concurrency 1, so deliveries do not share
 * batches; the run is one slot firing for `subs` subscriptions (its fan-out is included, divided by
 * the count). Server-side, INFO commandstats counts the commands scripts run inside Redis too.
 */
export interface CostResult {
  backend: "single" | "cluster";
  deliveries: number;
  commandsPerDelivery: number;
  roundTripsPerDelivery: number;
  serverCommandsPerDelivery: number;
  /** Commands by name, per delivery, the largest first. */
  byCommand: Record<string, number>;
  /**
   * Client commands per delivery by who sent them, read off the call stack of each command: `BullMQ`
   * (its scripts and plain commands), or the project module that made the call (e.g.
   * `src/digests/insights-cache.ts`), with how many of them were Lua scripts (EVAL/EVALSHA).
   */
  byOwner: Record<string, { commands: number; scripts: number }>;
}

const counts = {
  commands: 0,
  trips: 0,
  on: false,
  by: new Map<string, number>(),
  owners: new Map<string, { commands: number; scripts: number }>(),
};

/** Helpers every script or command of the project passes through: the caller above them is the owner. */
const PASS_THROUGH = /\/src\/store\/(scripts|redis-client)\.ts/;

/**
 * Who sent a command, from the call stack at `sendCommand` (pipelines and MULTI send from the
 * caller's `exec`): the nearest frame that is BullMQ's or a project module other than a pass-through
 * helper; "ioredis (replayed)" when neither is on the stack (commands queued while a connection was
 * not ready and sent on connect).
 */
function ownerOfCall(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  // The nearest caller decides: V8 appends the awaiting functions ("at async …") below the
  // synchronous frames, and every app call made inside a job has BullMQ's processor among those.
  for (const f of stack.split("\n").slice(1)) {
    if (f.includes("/node_modules/bullmq/")) return "BullMQ";
    const m = /\/((?:src|commands|templates)\/[^:)]+\.ts)/.exec(f);
    if (m && !PASS_THROUGH.test(f)) return m[1] as string;
  }
  return "ioredis (replayed)";
}
const open = new WeakSet<object>();
const proto = Redis.prototype as unknown as {
  sendCommand: (this: object, cmd: { name: string }, ...rest: unknown[]) => unknown;
};
const original = proto.sendCommand;
proto.sendCommand = function (this: object, cmd: { name: string }, ...rest: unknown[]) {
  if (counts.on) {
    counts.commands++;
    counts.by.set(cmd.name, (counts.by.get(cmd.name) ?? 0) + 1);
    const owner = ownerOfCall();
    const o = counts.owners.get(owner) ?? { commands: 0, scripts: 0 };
    o.commands++;
    if (/^eval(sha)?$/i.test(cmd.name)) o.scripts++;
    counts.owners.set(owner, o);
    if (!open.has(this)) {
      open.add(this);
      counts.trips++;
      setImmediate(() => open.delete(this));
    }
  }
  return original.call(this, cmd, ...rest);
};

/** Runs `fn` over `items` with `n` in flight (not imported from the storm: its module serves another RPC). */
async function inParallel<T>(items: T[], n: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: n }, lane));
}

async function serverCommands(redis: RedisClient): Promise<number> {
  let total = 0;
  for (const node of await scanTargets(redis)) {
    const info = await node.info("commandstats");
    for (const m of info.matchAll(/calls=(\d+)/g)) total += Number(m[1]);
  }
  return total;
}

export async function measureCost(o: {
  cluster: boolean;
  subs: number;
  workspaces: number;
}): Promise<CostResult> {
  const server = o.cluster ? await startPrivateRedisCluster(3) : await startPrivateRedis();
  const emulator = await startEmulator();
  const slack = await startSlackStandIn({
    signingSecret: "bench-cost",
    appUrl: "http://127.0.0.1:9/slack/events",
    workspaces: Array.from({ length: o.workspaces }, (_, w) => ({
      teamId: `TC${String(w).padStart(6, "0")}`,
      name: `cost ${w}`,
      botToken: `xoxb-cost-${w}`,
      channels: Array.from({ length: Math.ceil(o.subs / o.workspaces) }, (_, c) => ({
        id: `CC${String(w).padStart(6, "0")}X${c}`,
        name: `c${c}`,
      })),
    })),
  });
  const keyring = `k1:${Buffer.alloc(32, 3).toString("base64")}`;
  const redis = connectRedis(server.url, silentLogger(), "worker");
  const prefix = "cost";
  const queueName = "deliveries";
  const rt = quietRuntime(redis, { prefix, queueName });
  const apiKeys = createApiKeyStore({ redis, keyring: parseKeyring(keyring), prefix });
  // The setup below takes a few hundred ms; the counting starts 500 ms before the fire (checked there).
  const fireAt = new Date(Math.ceil((Date.now() + 2_000) / 1000) * 1000);
  const expression = `${fireAt.getUTCSeconds()} ${fireAt.getUTCMinutes()} ${fireAt.getUTCHours()} * * *`;
  const subs: Subscription[] = [];
  for (let i = 0; i < o.subs; i++) {
    const w = i % o.workspaces;
    subs.push(
      storedSubscription({
        id: newSubscriptionId(),
        ref: compactRef({ teamId: `TC${String(w).padStart(6, "0")}` }),
        ownerId: "U0COSTOWN",
        channelId: `CC${String(w).padStart(6, "0")}X${Math.floor(i / o.workspaces)}`,
        schedule: { kind: "cron", expression },
        range: `last${7 + (i % 50)}d`,
      }),
    );
  }
  const slot = slotOf(subs[0] as Subscription);
  if (!slot) throw new Error("no slot");
  for (let w = 0; w < o.workspaces; w++) {
    const ref = { teamId: `TC${String(w).padStart(6, "0")}` };
    await rt.registry.join(slot.id, ref);
    await apiKeys.save(ref, DEMO_API_KEY, { savedBy: "U0COSTOWN", savedAt: new Date().toISOString() });
  }
  await rt.scheduler.ensureSlot(slot);
  await inParallel(subs, 16, (s) => rt.store.insert(s));
  const config = loadConfig("worker", {
    REDIS_URL: server.url,
    ENCRYPTION_KEYS: keyring,
    ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
    SLACK_API_URL: slack.apiUrl,
    SLACK_BOT_TOKEN: "xoxb-cost-0",
    WORKER_CONCURRENCY: "1",
    CHARTS: "off",
    LOG_LEVEL: "silent",
  });
  const workerConn = connectRedis(server.url, silentLogger(), "worker");
  const worker = await startWorker({
    config,
    logger: silentLogger(),
    redis: workerConn,
    prefix,
    queueName,
    healthPort: null,
    tokenFor: async (ref) => `xoxb-cost-${Number((ref.teamId ?? "TC0").slice(2))}`,
  });
  const overran = Date.now() > fireAt.getTime() - 500;
  await sleep(fireAt.getTime() - Date.now() - 500);
  const serverBefore = await serverCommands(redis);
  counts.on = true;
  const delivered = () => slack.calls((c) => c.method === "chat.postMessage" && c.ok).length;
  const deadline = Date.now() + 120_000;
  while (delivered() < o.subs && Date.now() < deadline) await sleep(100);
  counts.on = false;
  const serverAfter = await serverCommands(redis);
  const n = delivered();
  await worker.close();
  await rt.close();
  await workerConn.quit().catch(() => undefined);
  await redis.quit().catch(() => undefined);
  await slack.close();
  await emulator.close();
  await server.destroy();
  if (overran)
    throw new Error("the setup ran past the slot's fire time less 500 ms: some commands went uncounted");
  const by = Object.fromEntries(
    [...counts.by.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round(v / Math.max(1, n), 2)]),
  );
  return {
    backend: o.cluster ? "cluster" : "single",
    deliveries: n,
    commandsPerDelivery: round(counts.commands / Math.max(1, n), 1),
    roundTripsPerDelivery: round(counts.trips / Math.max(1, n), 1),
    // The two INFO calls themselves and the polling are a handful of calls in total: negligible.
    serverCommandsPerDelivery: round((serverAfter - serverBefore) / Math.max(1, n), 1),
    byCommand: by,
    byOwner: Object.fromEntries(
      [...counts.owners.entries()]
        .sort((a, b) => b[1].commands - a[1].commands)
        .map(([k, v]) => [
          k,
          {
            commands: round(v.commands / Math.max(1, n), 2),
            scripts: round(v.scripts / Math.max(1, n), 2),
          },
        ]),
    ),
  };
}

if (process.send)
  serveRpc({ run: (o: { cluster: boolean; subs: number; workspaces: number }) => measureCost(o) });
