import { runStorm, type StormControl, type StormResult, withFreshWorld } from "./storm.ts";
import type { BenchWorkerOptions } from "./worker-child.ts";
import { buildWorld } from "./world.ts";

/** One fault run: a storm with something going wrong in the middle of it. */
export interface FaultRun {
  name: string;
  what: string;
  result: StormResult;
}

/**
 * Worker settings for the fault runs, shorter than production's so each run ends within the bench's
 * budget: retries back off from 1 s (production: 30 s), a dead worker's lease, job locks and the
 * locks on the insights and drivers it was computing for everyone run out in 10 s (production: 120 s,
 * 30 s and 30 s), analytics calls time out after 2 s (production: 4 s).
 */
export const FAULT_TUNING = {
  policy: { attempts: 5, backoffMs: 1_000 },
  claims: { leaseMs: 10_000 },
  locks: { lockDuration: 10_000, stalledInterval: 2_000 },
  // What a killed worker was fetching for every process (insights, drivers) stays locked this long.
  insightsLockMs: 10_000,
} satisfies BenchWorkerOptions;

interface FaultSpec {
  name: string;
  what: string;
  faults: { at: number; run(c: StormControl): Promise<void> }[];
}

const SPECS: FaultSpec[] = [
  {
    name: "worker SIGKILLed mid-storm, restarted",
    what: "at 30 % and again at 60 % delivered: SIGKILL the worker process, start a new one at once (its start-up reconcile included)",
    faults: [0.3, 0.6].map((at) => ({
      at,
      async run(c: StormControl) {
        await c.killWorker();
        await c.startWorker();
      },
    })),
  },
  {
    name: "Redis SIGKILLed mid-storm, restarted (AOF everysec)",
    what: "at 30 % delivered: SIGKILL redis-server, restart it on the same port and data dir at once",
    faults: [
      {
        at: 0.3,
        async run(c) {
          await c.world.redis.stop("SIGKILL");
          await c.world.redis.restart();
        },
      },
    ],
  },
  {
    name: "analytics: 30 % 5xx and 10 % hangs",
    what: "every GraphQL request from the start: 100 ms latency, 30 % answered 503, 10 % never answered",
    faults: [
      { at: 0, run: (c) => c.world.services.call("setRates", { latencyMs: 100, error5xx: 0.3, hang: 0.1 }) },
    ],
  },
  {
    name: "Slack 429 bursts",
    what: "at 0 %, 40 % and 70 % delivered: the next 100 chat.postMessage calls answer 429 (Retry-After 1 s)",
    faults: [0, 0.4, 0.7].map((at) => ({
      at,
      run: (c: StormControl) =>
        c.world.services.call("injectHttp", {
          method: "chat.postMessage",
          status: 429,
          retryAfter: 1,
          times: 100,
        }),
    })),
  },
];

/**
 * The four fault runs, each on a fresh world of `subscriptions` across `workspaces` (one channel per
 * subscription). They run side by side: each world is private (its own Redis or cluster, stand-ins,
 * worker and queue), and a run spends most of its time waiting (on a lock running out, a Retry-After,
 * a hung request, the settle after the last post), not computing, so one after another the section
 * was four times the wait of one run. Their figures are reported per run as before; the time a run
 * takes includes the load of the others (the bench runs the single-node and the cluster runs at once).
 */
export async function runFaults(o: {
  subscriptions: number;
  workspaces: number;
  concurrency: number;
  timeoutMs: number;
  only?: string;
  /** On a 3-master Redis Cluster (the Redis fault kills and restarts one master). */
  cluster?: boolean;
}): Promise<FaultRun[]> {
  const run = async (spec: FaultSpec): Promise<FaultRun> => {
    const build = () =>
      buildWorld(
        {
          subscriptions: o.subscriptions,
          workspaces: o.workspaces,
          latencyMs: 100,
          channelsPerWorkspace: Math.ceil(o.subscriptions / o.workspaces),
          policy: FAULT_TUNING.policy,
          cluster: o.cluster,
        },
        { WORKER_CONCURRENCY: String(o.concurrency), ANALYTICS_TIMEOUT_MS: "2000" },
      );
    const result = await withFreshWorld(build, (world) =>
      runStorm({
        world,
        worker: { prefix: world.prefix, queueName: world.queueName, ...FAULT_TUNING },
        timeoutMs: o.timeoutMs,
        settleMs: 8_000,
        // Eight runs set up at once: each takes several times as long as alone.
        setupMarginMs: 1_500,
        faults: spec.faults,
      }),
    );
    return { name: spec.name, what: spec.what, result };
  };
  // Every run ends (and closes its world) before one's failure is reported: a run left going after the
  // section gave up kept its Redis and stand-ins alive, and the bench from ever exiting.
  const settled = await Promise.allSettled(SPECS.filter((s) => !o.only || s.name.includes(o.only)).map(run));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<FaultRun>).value);
}
