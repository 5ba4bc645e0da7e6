import type { AckPlan } from "./ack/section.ts";
import type { ChartsPlan } from "./charts/section.ts";
import type { DriversPlan } from "./drivers/section.ts";
import type { MondayPlan } from "./monday/section.ts";

/** Counts and durations of a bench run; `--quick` keeps every section with smaller numbers where needed. */
export interface Plan {
  quick: boolean;
  /** Warm rates of every mode (web ×2: `doubleRates`), each `durationMs`, up to 500/s `repeats` times; the world they run in. */
  ack: AckPlan & { world: { workspaces: number; usersPerWorkspace: number } };
  ackUnderStorm: { rate: number; durationMs: number; delayMs: number };
  render: { iterations: number; chartIterations: number };
  badInput: { fuzz: number; analytics: number; slack: number };
  storms: { subscriptions: number; workspaces: number; subsPerChannel: number }[];
  /** Worker (and bare loop) concurrency in storms: WORKER_CONCURRENCY. */
  concurrency: number;
  faults: { subscriptions: number; workspaces: number; timeoutMs: number };
  stormTimeoutMs: number;
  drivers: DriversPlan;
  /** Issue 25: render with the chart block; a storm of 5 workspaces × 200 with the defaults. */
  charts: ChartsPlan;
  /** Questions in plain words: rounds of the question list, asked one at a time. */
  ask: { rounds: number };
  /** Issue 15's engine figures. */
  engine: {
    cost: { subs: number; workspaces: number };
    workers: { subs: number; workspaces: number };
    /** `order`: free (false) and throttled (true) runs, interleaved against the machine's drift. */
    throttle: { subs: number; workspaces: number; order: boolean[] };
  };
  /**
   * Monday 09:00: one slot of a large install with the defaults, two workers, people at the web
   * (100,000 subscriptions in the full run, 10,000 in --quick); the one-against-two pair on 10,000.
   */
  monday: MondayPlan;
}

/**
 * Storms of scheduled digests where subscriptions share accounts: varied ranges, then team filters.
 * The one-range storm always fires twice (its target reads the second fire); the others only where
 * `twice` (the full run: the quick one keeps within its five minutes).
 */
const DRIVER_STORMS = (sizes: number[], twice: boolean) => [
  {
    name: "10 accounts × 10 subscriptions, one range (last7d) per account",
    accounts: 10,
    subsPerAccount: 10,
    groupShare: 0,
    scannerShare: 0,
    range: "last7d",
    nextFire: true,
  },
  ...sizes.map((n) => ({
    name: `10 accounts × ${n} subscriptions, each its own range`,
    accounts: 10,
    subsPerAccount: n,
    groupShare: 0,
    scannerShare: 0,
    nextFire: twice,
  })),
  {
    name: "10 accounts × 40 subscriptions, team channels (30 % one asset group, 20 % one scanner, last7d)",
    accounts: 10,
    subsPerAccount: 40,
    groupShare: 0.3,
    scannerShare: 0.2,
    nextFire: twice,
  },
];

/** A delivery storm: `subscriptions` spread over `workspaces`, `subsPerChannel` sharing each channel. */
const storm = (subscriptions: number, workspaces: number, subsPerChannel: number) => ({
  subscriptions,
  workspaces,
  subsPerChannel,
});
/** The quick and the full run send the same request rates and bad inputs; only how long differs. */
const ack = (durationMs: number): Plan["ack"] => ({
  rates: [300, 1_000],
  doubleRates: [1_000],
  durationMs,
  repeats: 3,
  modes: ["start", "web+worker", "web×2+worker"],
  // OAuth mode with 50 workspaces of 10 people each: 500 people, 50 platform accounts.
  world: { workspaces: 50, usersPerWorkspace: 10 },
});
const SAME = { badInput: { fuzz: 10_000, analytics: 1_000, slack: 1_000 }, concurrency: 50 };

/** The Monday slot of `subs` subscriptions; its one-against-two worker pair at most 10,000. */
export const mondayPlan = (subs: number): MondayPlan => ({
  subs,
  scalingSubs: Math.min(subs, 10_000),
  mixRate: 100,
  holdMs: 120_000,
  webDouble: { rate: 1_000, durationMs: 10_000 },
});

/** The plan of a quick or full run; `subs` sizes the Monday slot instead of the run's own. */
export function planFor(quick: boolean, o: { subs?: number } = {}): Plan {
  const plan = basePlan(quick);
  return o.subs === undefined ? plan : { ...plan, monday: mondayPlan(o.subs) };
}

function basePlan(quick: boolean): Plan {
  return quick
    ? {
        quick,
        ...SAME,
        ack: ack(1_500),
        ackUnderStorm: { rate: 300, durationMs: 4_000, delayMs: 2_000 },
        render: { iterations: 2_000, chartIterations: 10 },
        // 2,000 with a channel each; the shared-channel effect on 1,000 (it is the slow one).
        storms: [storm(2_000, 200, 1), storm(1_000, 100, 2), storm(10_000, 1_000, 1)],
        // One subscription per workspace: after a kill, each takeover may read history once a minute.
        faults: { subscriptions: 150, workspaces: 150, timeoutMs: 120_000 },
        stormTimeoutMs: 120_000,
        // 300 ms of latency is reported with no target: four runs, the rows with targets seven.
        drivers: {
          timingRuns: 7,
          slowTimingRuns: 4,
          storms: DRIVER_STORMS([10, 20, 40], false),
          huge: false,
        },
        charts: {
          iterations: 2_000,
          storm: { subscriptions: 1_000, workspaces: 5 },
          pngStorm: { subscriptions: 200, workspaces: 5 },
          // What the chart costs (native against off) has no target: the full run measures it.
          offStorm: null,
          concurrency: 50,
          timeoutMs: 240_000,
        },
        ask: { rounds: 2 },
        engine: {
          cost: { subs: 200, workspaces: 20 },
          // Half the full run's storms, and one free and one throttled run: what makes --quick quick.
          workers: { subs: 1_000, workspaces: 100 },
          throttle: { subs: 1_000, workspaces: 50, order: [false, true] },
        },
        monday: mondayPlan(10_000),
      }
    : {
        quick,
        ...SAME,
        ack: ack(4_000),
        ackUnderStorm: { rate: 300, durationMs: 8_000, delayMs: 3_000 },
        render: { iterations: 10_000, chartIterations: 30 },
        storms: [
          storm(2_000, 200, 2),
          storm(2_000, 200, 1),
          storm(10_000, 1_000, 2),
          storm(10_000, 1_000, 1),
        ],
        faults: { subscriptions: 1_000, workspaces: 1_000, timeoutMs: 240_000 },
        stormTimeoutMs: 480_000,
        drivers: { timingRuns: 15, storms: DRIVER_STORMS([10, 20, 40, 100], true), huge: true },
        charts: {
          iterations: 10_000,
          storm: { subscriptions: 1_000, workspaces: 5 },
          pngStorm: { subscriptions: 1_000, workspaces: 5 },
          offStorm: { subscriptions: 1_000, workspaces: 5 },
          concurrency: 50,
          timeoutMs: 480_000,
        },
        ask: { rounds: 5 },
        engine: {
          cost: { subs: 500, workspaces: 50 },
          workers: { subs: 10_000, workspaces: 1_000 },
          throttle: { subs: 5_000, workspaces: 250, order: [false, true, true, false] },
        },
        // The 100,000-subscription slot (it took the place of a storm of as many text digests, one worker).
        monday: mondayPlan(100_000),
      };
}
