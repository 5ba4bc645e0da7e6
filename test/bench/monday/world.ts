import { buildAccount } from "../../../sandbox/analytics/index.ts";
import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import { parseKeyring } from "../../../src/config.ts";
import { groupAssets } from "../../../src/insights/asset-groups.ts";
import { createInstallationStore } from "../../../src/install/index.ts";
import { DEFAULT_PREFIX } from "../../../src/store/keys.ts";
import { type BenchWorkspace, installationOf } from "../ack/world.ts";
import { benchToken } from "../storm/worker-child.ts";
import {
  buildWorld,
  channelOf,
  keyOf,
  ownerOf,
  personOf,
  teamOf,
  type World,
  workspaceSeed,
} from "../storm/world.ts";

/**
 * The world of a Monday 09:00 slot: `n` subscriptions over about n/20 workspaces of very unequal size
 * (zipfSizes), about n/100 analytics accounts shared between them, common ranges and team filters,
 * the emulator at 100 ms; the worker's defaults (drivers and native charts on, the slot warmed 15 s
 * ahead) at WORKER_CONCURRENCY 50; and what a web process needs to answer people in some of those
 * workspaces (OAuth installations, their people), on the product's own key prefix.
 */

/** People per workspace besides its owner (the ack section's world has ten per workspace). */
const PEOPLE = 9;
/** Workspaces whose people send the interactive mix (the ack section's world has 50). */
const MIX_WORKSPACES = 50;
/** The Mandelbrot shift of zipfSizes: the largest workspace holds about 1/(1 + SHIFT) of the first share. */
const SHIFT = 2;

/**
 * Subscriptions per workspace as a large install spreads them, largest first: the workspace of rank r
 * (from 1) holds a share of about 1/(r + shift) (Zipf–Mandelbrot), so a few hold thousands and most a
 * handful. Every workspace holds at least one; the sizes add up to `n` (largest remainders).
 *
 * @example zipfSizes(100_000, 5_000) // [4171, 3129, 2503, …, 3, 3]
 */
export function zipfSizes(n: number, workspaces: number, shift = SHIFT): number[] {
  if (workspaces < 1 || n < workspaces)
    throw new RangeError(`${n} subscriptions cannot fill ${workspaces} workspaces`);
  const weights = Array.from({ length: workspaces }, (_, r) => 1 / (r + 1 + shift));
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => ((n - workspaces) * w) / total);
  const sizes = shares.map((s) => 1 + Math.floor(s));
  const left = n - sizes.reduce((a, b) => a + b, 0);
  const byRemainder = shares
    .map((s, i) => ({ i, r: s - Math.floor(s) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder.slice(0, left)) sizes[i] = (sizes[i] ?? 0) + 1;
  return sizes;
}

export interface MondayWorld {
  world: World;
  sizes: number[];
  accounts: number;
  /** The workspaces whose people send the interactive mix, spread over every size. */
  people: BenchWorkspace[];
  /** Environment of the web process (PORT and HEALTH_PORT are added by spawnProduct). */
  webEnv: Record<string, string>;
}

/** Workspace w as the ack section's mix needs it: its people, its channel, its account's catalogue. */
function benchWorkspace(world: World, w: number): BenchWorkspace {
  const account = buildAccount({ apiKey: keyOf(world.spec, w) });
  const assets = account.assets.map((a) => ({ id: a.value, name: a.displayValue }));
  return {
    teamId: teamOf(w),
    channelId: channelOf(w, 0),
    botToken: benchToken({ teamId: teamOf(w) }),
    users: [ownerOf(w), ...Array.from({ length: PEOPLE }, (_, p) => personOf(w, p))],
    admins: [ownerOf(w)],
    assets,
    groups: groupAssets(account.assets).map((g) => g.name),
    scanners: account.scanners.map((s) => ({ id: s.value, name: s.displayValue })),
  };
}

/** Builds the world (without subscriptions: runStorm makes them) and installs the app in the mix's workspaces. */
export async function buildMondayWorld(n: number): Promise<MondayWorld> {
  const workspaces = Math.max(1, Math.round(n / 20));
  const accounts = Math.max(1, Math.round(n / 100));
  const sizes = zipfSizes(n, workspaces);
  const world = await buildWorld(
    {
      subscriptions: n,
      workspaces,
      sizes,
      accounts,
      mixed: true,
      people: PEOPLE,
      latencyMs: 100,
      prefix: DEFAULT_PREFIX,
    },
    {
      // The defaults: charts and drivers on, the product's warm-up lead; the worker's concurrency as
      // the storms and the sizing guide run it (the default of 5 is for small installs).
      CHARTS: "on",
      SLOT_WARM_LEAD_SECONDS: "15",
      WORKER_CONCURRENCY: "50",
      // OAuth, as an install of many workspaces runs: the web reads each workspace's installation.
      SLACK_BOT_TOKEN: "",
      SLACK_SIGNING_SECRET: SANDBOX_SIGNING_SECRET,
      SLACK_CLIENT_ID: "1111111111.2222222222",
      SLACK_CLIENT_SECRET: "bench-client-secret",
      SLACK_STATE_SECRET: "bench-state-secret",
      // The workers give their threads WORKER_NICE, as `insights-digest worker` does beside a web.
      BENCH_WORKER_NICE: "on",
    },
  );
  try {
    const picked = [
      ...new Set(
        Array.from({ length: Math.min(MIX_WORKSPACES, workspaces) }, (_, j) =>
          Math.floor((j * workspaces) / Math.min(MIX_WORKSPACES, workspaces)),
        ),
      ),
    ];
    const installs = createInstallationStore({
      redis: world.conn,
      keyring: parseKeyring(world.env.ENCRYPTION_KEYS ?? ""),
    });
    for (const w of picked)
      await installs.storeInstallation(
        installationOf(workspaceSeed(world.spec, world.spec.channelsPerWorkspace, w)),
      );
    return {
      world,
      sizes,
      accounts,
      people: picked.map((w) => benchWorkspace(world, w)),
      // Production-like logging: one line per request at info, to the process's log file.
      webEnv: { ...world.env, WEB_CONCURRENCY: "1", LOG_LEVEL: "info" },
    };
  } catch (err) {
    await world.close();
    throw err;
  }
}
