import { round } from "../stats.ts";
import type { BareResult } from "./bare-loop.ts";
import { runBareLoop, runStorm, type StormResult, slim, withFreshWorld } from "./storm.ts";
import { buildWorld, type World } from "./world.ts";

/** One storm size: the product's delivery worker, then the bare loop over the same digests. */
export interface StormRow {
  subscriptions: number;
  workspaces: number;
  subsPerChannel: number;
  concurrency: number;
  app: StormResult;
  bare: BareResult;
  bareDigestsPerSec: number;
  /** app digests/s ÷ bare digests/s; with `ratios`, their median (this row's other figures are that run's). */
  ratio: number;
  /** Every run's ratio, in order, when the first was within the noise of its bound and the storm was repeated. */
  ratios?: number[];
}

/** A storm's ratio target: the bound, and the spread that runs of one commit show on this machine. */
export const STORM_BOUND = 0.8;
export const STORM_SPREAD = 0.15;
/** Runs a ratio within the noise is judged on (the median of). */
export const NOISY_RUNS = 5;

/**
 * One verdict policy, for quick and full runs alike: a storm whose ratio clears its bound by more
 * than the spread between runs is judged on that run; one within it is run again until there are
 * NOISY_RUNS, and judged on their median (the row is the median run's, with every ratio beside it).
 * `again` runs the storm once more from a fresh world.
 */
export async function judgedStorm(first: StormRow, again: () => Promise<StormRow>): Promise<StormRow> {
  if (Math.abs(first.ratio - STORM_BOUND) > STORM_SPREAD) return first;
  const rows = [first];
  while (rows.length < NOISY_RUNS) rows.push(await again());
  const sorted = [...rows].sort((a, b) => a.ratio - b.ratio);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as StormRow;
  return { ...median, ratios: rows.map((r) => r.ratio) };
}

export async function runStormRow(o: {
  subscriptions: number;
  workspaces: number;
  subsPerChannel: number;
  concurrency: number;
  timeoutMs: number;
  alongside?: () => Promise<unknown>;
  /** More of the worker's environment (CHARTS=on for the charts section). */
  env?: Record<string, string>;
  /** Runs on the built world before the storm (a workspace setting). */
  prepare?: (world: World) => Promise<void>;
  /** The digest the bare loop posts (see runBareLoop). */
  bareMessage?: (world: World) => { text: string; blocks: unknown[] };
}): Promise<StormRow> {
  const perWorkspace = Math.ceil(o.subscriptions / o.workspaces);
  const build = () =>
    buildWorld(
      {
        subscriptions: o.subscriptions,
        workspaces: o.workspaces,
        latencyMs: 100,
        channelsPerWorkspace: Math.max(1, Math.ceil(perWorkspace / o.subsPerChannel)),
      },
      { WORKER_CONCURRENCY: String(o.concurrency), ...o.env },
    );
  return withFreshWorld(build, async (world) => {
    await o.prepare?.(world);
    const app = await runStorm({
      world,
      memory: true,
      // Production settings: Slack's pacing per workspace and channel, no queue-wide limiter.
      worker: { prefix: world.prefix, queueName: world.queueName },
      timeoutMs: o.timeoutMs,
      alongside: o.alongside,
    });
    const bare = await runBareLoop(world, o.concurrency, o.bareMessage?.(world));
    const bareDigestsPerSec = round(bare.delivered / Math.max(0.001, bare.ms / 1000), 1);
    return {
      subscriptions: o.subscriptions,
      workspaces: o.workspaces,
      subsPerChannel: o.subsPerChannel,
      concurrency: o.concurrency,
      app: slim(app),
      bare,
      bareDigestsPerSec,
      ratio: round(app.digestsPerSec / Math.max(0.001, bareDigestsPerSec), 2),
    };
  });
}
