import { DEMO_API_KEY, SCENARIO_KEYS } from "../../../sandbox/analytics/index.ts";
import { scheduledExtras } from "../../../src/digests/scheduled.ts";
import { digestMessage } from "../../../templates/digest-message.ts";
import { round, type Summary, summarize } from "../stats.ts";
import { catalogue, inParallel } from "../storm/world.ts";
import { accountKey, BIG_KEY, buildDriversWorld, type DriversWorld, HUGE_KEY } from "./world.ts";

/**
 * Drivers in numbers: GraphQL queries per digest with and without them, the time they add to an
 * on-demand digest (the Why? answer against the plain digest, cold cache), and a storm of scheduled
 * digests where many subscriptions share an account, with and without drivers: requests that
 * reached the service and the cache's hit rate.
 */

export interface DriversPlan {
  timingRuns: number;
  /** Timed digests per cell at 300 ms of latency, a figure reported with no target of its own [timingRuns]. */
  slowTimingRuns?: number;
  storms: StormSpec[];
  /** Include a 10,000-asset account in the queries table. */
  huge: boolean;
}

export interface StormSpec {
  name: string;
  accounts: number;
  subsPerAccount: number;
  /** Share of subscriptions filtered to one asset group, and to one scanner (team channels). */
  groupShare: number;
  scannerShare: number;
  /** One range for every unfiltered subscription (the same account and range firing together). */
  range?: string;
  /** Fire the slot again a week later, in a new process (see StormResult.next). */
  nextFire?: boolean;
}

export interface QueryRow {
  account: string;
  assets: number;
  range: string;
  plainRequests: number;
  driversRequests: number;
  plannedQueries: number;
  unqueriedGroups: number;
}

export interface TimingRow {
  latencyMs: number;
  range: string;
  plainMs: Summary;
  driversMs: Summary;
  addedMsP50: number;
  addedMsP90: number;
}

export interface StormRun {
  /** GraphQL requests that reached the emulator. */
  requests: number;
  /** Reply bytes the emulator sent. */
  bytes: number;
  /** Questions put to the insights cache (hits, in-flight waits and misses). */
  fetches: number;
  hitRate: number;
  wallMs: number;
  /** Digests that failed, or whose drivers were unavailable. */
  failed: number;
  /** CPU ms spent during the run by the bench process (the app's side) and by the emulator's. */
  appCpuMs: number;
  emulatorCpuMs: number;
}

export interface StormResult {
  spec: StormSpec;
  subscriptions: number;
  /** The slot's first fire: nothing held from before (the account's lists unknown). */
  plain: StormRun;
  drivers: StormRun;
  ratio: number;
  /**
   * The same slot a week later, in a new process: nothing in memory, the caches' replies and results
   * of the first fire of no use (other days), what the first fire stored for longer (the lists) there.
   */
  next?: { plain: StormRun; drivers: StormRun; ratio: number };
}

export interface DriversBenchResult {
  latencyMs: number;
  queries: QueryRow[];
  timing: TimingRow[];
  storms: StormResult[];
}

const NOW = () => new Date();
const ref = (i: number) => ({ teamId: `TBDRV${String(i).padStart(4, "0")}` });

async function queriesTable(w: DriversWorld, huge: boolean): Promise<QueryRow[]> {
  const accounts = [
    { name: "demo", key: DEMO_API_KEY, assets: 35 },
    { name: "scenario-outage", key: SCENARIO_KEYS.outage, assets: 35 },
    { name: "generated", key: BIG_KEY, assets: 2_400 },
    ...(huge ? [{ name: "generated", key: HUGE_KEY, assets: 10_000 }] : []),
  ];
  const rows: QueryRow[] = [];
  for (const a of accounts)
    for (const range of ["last7d", "last30d", "last300d"]) {
      const target = { ref: ref(9_000), apiKey: a.key };
      const count = async (drivers: boolean) => {
        const { digests } = await w.service([target]);
        const before = await w.requests();
        const { view } = await digests.build({
          ref: target.ref,
          range,
          tz: "UTC",
          now: NOW(),
          ...(drivers ? { drivers: "required" as const } : {}),
        });
        return { requests: (await w.requests()) - before, view };
      };
      const plain = await count(false);
      const withDrivers = await count(true);
      rows.push({
        account: a.name,
        assets: a.assets,
        range,
        plainRequests: plain.requests,
        driversRequests: withDrivers.requests,
        plannedQueries: withDrivers.view.drivers?.queries ?? 0,
        unqueriedGroups: withDrivers.view.drivers?.unqueriedGroups ?? 0,
      });
    }
  return rows;
}

async function timing(
  w: DriversWorld,
  latencies: { latencyMs: number; runs: number }[],
): Promise<TimingRow[]> {
  const rows: TimingRow[] = [];
  for (const { latencyMs, runs } of latencies) {
    await w.setLatency(latencyMs);
    for (const range of ["last7d", "last30d"]) {
      const plain: number[] = [];
      const drivers: number[] = [];
      for (let i = 0; i < runs; i++) {
        // Fresh prefix each time: a cold cache, as for the first digest of an account that day.
        for (const withDrivers of [false, true]) {
          const target = { ref: ref(8_000 + i), apiKey: DEMO_API_KEY };
          const { digests } = await w.service([target]);
          const t = performance.now();
          const { view } = await digests.build({
            ref: target.ref,
            range,
            tz: "UTC",
            now: NOW(),
            shareable: true,
            ...(withDrivers ? { drivers: "required" as const } : {}),
          });
          digestMessage(view);
          (withDrivers ? drivers : plain).push(performance.now() - t);
        }
      }
      const p = summarize(plain);
      const d = summarize(drivers);
      rows.push({
        latencyMs,
        range,
        plainMs: p,
        driversMs: d,
        addedMsP50: round(d.p50 - p.p50, 1),
        addedMsP90: round(d.p90 - p.p90, 1),
      });
    }
  }
  return rows;
}

/** Subscription k of an account: its own range (as in the delivery storms), or a team filter. */
function subscriptionOf(spec: StormSpec, k: number, groups: string[], scanners: string[]) {
  const share = (k % 100) / 100;
  if (share < spec.groupShare) return { range: "last7d", assetGroups: [groups[k % groups.length] as string] };
  if (share < spec.groupShare + spec.scannerShare)
    return { range: "last7d", scannerIds: [scanners[k % scanners.length] as string] };
  return { range: spec.range ?? `last${7 + (k % 300)}d` };
}

async function storm(w: DriversWorld, spec: StormSpec, concurrency: number): Promise<StormResult> {
  const keys = Array.from({ length: spec.accounts }, (_, i) => ({ ref: ref(i), apiKey: accountKey(i) }));
  const subs = keys.flatMap((k) => Array.from({ length: spec.subsPerAccount }, (_, j) => ({ k, j })));
  const catalogues = new Map(keys.map((k) => [k.apiKey, catalogue(k.apiKey)]));
  const WEEK = 7 * 86_400_000;
  const run = async (withDrivers: boolean, now: Date, again?: string) => {
    const { digests, fetches, prefix } = await w.service(keys, undefined, again);
    const before = await w.requests();
    const bytesBefore = await w.bytes();
    const emuBefore = await w.emulatorCpuMs();
    const cpuBefore = process.cpuUsage();
    const t = performance.now();
    let failed = 0;
    // As a slot's lookahead does: each workspace's scheduled digests warmed before they are delivered
    // (a subscription stores ids, so the team channels narrowed to a group are built unplanned). The
    // time and CPU below count the warm-up with the deliveries.
    if (withDrivers)
      await Promise.all(
        keys.map((k) => {
          const { groups, scanners } = catalogues.get(k.apiKey) ?? { groups: [], scanners: [] };
          const planned = Array.from({ length: spec.subsPerAccount }, (_, j) =>
            subscriptionOf(spec, j, groups, scanners),
          ).flatMap((sub) =>
            "assetGroups" in sub
              ? []
              : [{ range: sub.range, tz: "UTC", now, assetIds: [], scannerIds: sub.scannerIds ?? [] }],
          );
          return digests.warmDrivers(k.ref, planned);
        }),
      );
    await inParallel(subs, concurrency, async ({ k, j }) => {
      const { groups, scanners } = catalogues.get(k.apiKey) ?? { groups: [], scanners: [] };
      const sub = subscriptionOf(spec, j, groups, scanners);
      const { view } = await digests
        .build({
          ref: k.ref,
          tz: "UTC",
          now,
          ...sub,
          ...scheduledExtras({ drivers: withDrivers, chart: "off" }),
        })
        .catch(() => ({ view: null }));
      if (!view) failed++;
      else if (withDrivers && view.driversUnavailable) failed++;
    });
    const wallMs = performance.now() - t;
    const cpu = process.cpuUsage(cpuBefore);
    const emulatorCpuMs = round((await w.emulatorCpuMs()) - emuBefore, 0);
    const requests = (await w.requests()) - before;
    const bytes = (await w.bytes()) - bytesBefore;
    const f = fetches();
    return {
      prefix,
      requests,
      bytes,
      fetches: f,
      hitRate: round(1 - requests / Math.max(1, f), 3),
      wallMs: round(wallMs, 0),
      failed,
      appCpuMs: round((cpu.user + cpu.system) / 1000, 0),
      emulatorCpuMs,
    };
  };
  const fires = async (withDrivers: boolean) => {
    const { prefix, ...first } = await run(withDrivers, new Date(Date.now() - WEEK));
    if (!spec.nextFire) return { first };
    const { prefix: _, ...next } = await run(withDrivers, NOW(), prefix);
    return { first, next };
  };
  const plain = await fires(false);
  const drivers = await fires(true);
  const ratio = (d: StormRun, p: StormRun) => round(d.requests / Math.max(1, p.requests), 2);
  return {
    spec,
    subscriptions: subs.length,
    plain: plain.first,
    drivers: drivers.first,
    ratio: ratio(drivers.first, plain.first),
    ...(plain.next && drivers.next
      ? { next: { plain: plain.next, drivers: drivers.next, ratio: ratio(drivers.next, plain.next) } }
      : {}),
  };
}

export async function measureDrivers(
  plan: DriversPlan,
  log: (line: string) => void,
): Promise<DriversBenchResult> {
  const latencyMs = 100;
  const accounts = Math.max(...plan.storms.map((s) => s.accounts), 1);
  const w = await buildDriversWorld(accounts, 0, plan.huge);
  try {
    log("  queries per digest");
    const queries = await queriesTable(w, plan.huge);
    log("  digest time with and without drivers");
    const timingRows = await timing(w, [
      { latencyMs: 0, runs: plan.timingRuns },
      { latencyMs, runs: plan.timingRuns },
      { latencyMs: 300, runs: plan.slowTimingRuns ?? plan.timingRuns },
    ]);
    await w.setLatency(latencyMs);
    const storms: StormResult[] = [];
    for (const spec of plan.storms) {
      log(`  storm ${spec.name}`);
      storms.push(await storm(w, spec, 50));
    }
    return { latencyMs, queries, timing: timingRows, storms };
  } finally {
    await w.close();
  }
}
