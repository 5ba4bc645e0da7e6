import { type Child, spawnChild } from "../child.ts";
import { round } from "../stats.ts";
import { runStorm, type StormResult, slim, withFreshWorld } from "../storm/storm.ts";
import { buildWorld, teamOf, type World } from "../storm/world.ts";
import type { CostResult } from "./cost.ts";

/** Redis cost per delivery on one server and on the cluster (each in its own process). */
export async function measureCosts(o: { subs: number; workspaces: number }): Promise<CostResult[]> {
  const out: CostResult[] = [];
  for (const cluster of [false, true]) {
    const child: Child = spawnChild(new URL("./cost.ts", import.meta.url));
    try {
      out.push(await child.call<CostResult>("run", { cluster, subs: o.subs, workspaces: o.workspaces }));
    } finally {
      await child.kill();
    }
  }
  return out;
}

const stormWorld =
  (subs: number, workspaces: number, extra: { throttleable?: boolean; cluster?: boolean } = {}) =>
  () =>
    buildWorld(
      {
        subscriptions: subs,
        workspaces,
        latencyMs: 100,
        channelsPerWorkspace: Math.ceil(subs / workspaces),
        ...extra,
      },
      { WORKER_CONCURRENCY: "50" },
    );

export interface WorkersRow {
  workers: number;
  storm: StormResult;
}

/** The same storm with one worker process and with two (each WORKER_CONCURRENCY 50). */
export async function measureWorkers(o: {
  subs: number;
  workspaces: number;
  timeoutMs: number;
}): Promise<WorkersRow[]> {
  const rows: WorkersRow[] = [];
  for (const workers of [1, 2]) {
    const storm = await withFreshWorld(stormWorld(o.subs, o.workspaces), (world) =>
      runStorm({
        world,
        workers,
        worker: { prefix: world.prefix, queueName: world.queueName },
        timeoutMs: o.timeoutMs,
      }),
    );
    rows.push({ workers, storm: slim(storm) });
  }
  return rows;
}

export interface ThrottleResult {
  subscriptions: number;
  workspaces: number;
  /** Digests/s of every workspace but the first, without and with the first one throttled (mean of the runs). */
  othersPerSecFree: number;
  othersPerSecThrottled: number;
  /** Every run in order (free, throttled, throttled, free; the quick run: free, throttled), so a drift of the machine's load shows. */
  runs: { throttled: boolean; othersPerSec: number }[];
  /** 1 − throttled / free. */
  cost: number;
  throttledWorkspaceDelivered: number;
  throttled429: number;
}

/** Others' digests/s: their deliveries over the time from the fire to their last post. */
const throttledSubs = (world: World) =>
  new Set(world.subs.filter((s) => s.ref.teamId === teamOf(0)).map((s) => s.id));

function othersRate(world: World, r: StormResult): number {
  const skip = throttledSubs(world);
  const times = Object.entries(r.firstPostBy ?? {})
    .filter(([d]) => !skip.has(d.split("/")[0] ?? ""))
    .map(([, at]) => at);
  const last = Math.max(...times);
  return round(times.length / Math.max(0.001, (last - r.firedAt) / 1000), 1);
}

/**
 * A storm over many workspaces, twice: as is, and with Slack answering 429 (Retry-After 1 s) to every
 * post of the first workspace for the whole run. What the throttled workspace costs the others.
 */
export async function measureThrottle(o: {
  subs: number;
  workspaces: number;
  timeoutMs: number;
  /** Runs free (false) and throttled (true), in this order [free, throttled, throttled, free]. */
  order?: readonly boolean[];
}): Promise<ThrottleResult> {
  const runs: { throttled: boolean; othersPerSec: number }[] = [];
  let throttledDelivered = 0;
  let throttled429 = 0;
  // Interleaved (free, throttled, throttled, free in the full run): on a shared machine the load drifts between runs.
  for (const throttle of o.order ?? [false, true, true, false]) {
    await withFreshWorld(stormWorld(o.subs, o.workspaces, { throttleable: true }), async (world) => {
      const r = await runStorm({
        world,
        worker: { prefix: world.prefix, queueName: world.queueName },
        timeoutMs: o.timeoutMs,
        // The throttled workspace never gets through while throttled: stop when the others are done.
        stopAt: throttle ? o.subs - Math.ceil(o.subs / o.workspaces) : undefined,
        faults: [
          {
            at: 0,
            async run(c) {
              if (throttle)
                await c.world.services.call("throttle", {
                  token: `xoxb-bench-${teamOf(0)}`,
                  ms: o.timeoutMs,
                });
            },
          },
        ],
      });
      runs.push({ throttled: throttle, othersPerSec: othersRate(world, r) });
      if (throttle) {
        throttled429 += await world.services.call<number>("throttled429");
        const mine = throttledSubs(world);
        throttledDelivered += Object.keys(r.firstPostBy ?? {}).filter((d) =>
          mine.has(d.split("/")[0] ?? ""),
        ).length;
      }
    });
  }
  const mean = (t: boolean) => {
    const xs = runs.filter((x) => x.throttled === t).map((x) => x.othersPerSec);
    return round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), 1);
  };
  const free = mean(false);
  const slow = mean(true);
  return {
    subscriptions: o.subs,
    workspaces: o.workspaces,
    othersPerSecFree: free,
    othersPerSecThrottled: slow,
    runs,
    cost: round(1 - slow / Math.max(0.001, free), 3),
    throttledWorkspaceDelivered: throttledDelivered,
    throttled429,
  };
}
