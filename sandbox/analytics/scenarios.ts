import type { FilterOption } from "../../src/analytics/types.ts";
import { dayNumber } from "./days.ts";

/**
 * Scenario accounts: the demo estate with one thing planted, relative to the emulator's today, so
 * `last7d` shows it whenever it is run. Each is what the drivers and the data-gap rule exist for:
 * a regression in one asset group, a scanner rolled out mid-range, a scanner that stopped sending.
 * Selected by API key like any account; every emulator knows these keys.
 */

export const SCENARIO_KEYS = {
  /** `payments / *` triples its findings (and so violations) from 6 days ago; fixes stay flat. */
  regression: "scenario-regression",
  /** The `container` scanner reports nothing until 6 days ago, then a lot (every asset). */
  newScanner: "scenario-new-scanner",
  /** The `sca` scanner reports nothing from 3 days ago on: a scan outage. */
  outage: "scenario-outage",
  /** A strong weekly rhythm (busy Mondays, quiet weekends), steady, with nothing unusual in it. */
  weekly: "scenario-weekly",
  /** The same rhythm, and yesterday `payments / *` had 10× its findings (so violations): an unusual day on any weekday. */
  unusualDay: "scenario-unusual-day",
  /** The same rhythm, and `sca` and `sast` report nothing from 2 days ago on: low totals that are a gap. */
  weeklyOutage: "scenario-weekly-outage",
} as const;

export type ScenarioKind = keyof typeof SCENARIO_KEYS;

export interface Scenario {
  kind: ScenarioKind;
  /** The planted driver: an asset group (parent name) or a scanner id, and any more of the same kind. */
  target: { dimension: "group" | "scanner"; key: string; also?: readonly string[] };
  /** Days before today the change starts (0 = today). */
  startsDaysAgo: number;
  /** Findings multiplier from then on (0 = silent), and the fix multiplier (fixes as a share of violations). */
  findings: number;
  fixes: number;
  /** Before the start, the target is silent (a scanner not yet rolled out). */
  silentBefore: boolean;
  /** Days the change lasts from its start; absent = until today. */
  days?: number;
  /**
   * The account's weekly rhythm: each ISO weekday's (1 = Monday … 7 = Sunday) share of a plain
   * weekday, in place of the model's weekends at 30 % and its slow waves (and a steady fix rate).
   */
  rhythm?: readonly number[];
  /**
   * With a rhythm: the account's volume as a multiple of the plain model's. A quiet weekend day is
   * 15 % of a weekday; at the plain volume that is a few dozen violations, under the unusual rule's
   * floor of 20 either side, so a change planted on a Saturday would be too small to judge. Ten times
   * the volume keeps every day of the week well above it: the planted day is unusual on any weekday.
   */
  volume?: number;
}

/** Mondays at 1.8× a plain weekday, Fridays 0.9×, weekends 15 %: the week of a team that scans on push. */
const WEEKLY_RHYTHM = [1.8, 1, 1, 1, 0.9, 0.15, 0.15] as const;
const RHYTHM_VOLUME = 10;

export const SCENARIOS: Record<ScenarioKind, Scenario> = {
  regression: {
    kind: "regression",
    target: { dimension: "group", key: "payments" },
    startsDaysAgo: 6,
    findings: 3,
    fixes: 1 / 3,
    silentBefore: false,
  },
  newScanner: {
    kind: "newScanner",
    target: { dimension: "scanner", key: "container" },
    startsDaysAgo: 6,
    findings: 3,
    fixes: 1,
    silentBefore: true,
  },
  outage: {
    kind: "outage",
    target: { dimension: "scanner", key: "sca" },
    startsDaysAgo: 3,
    findings: 0,
    fixes: 1,
    silentBefore: false,
  },
  weekly: {
    kind: "weekly",
    target: { dimension: "group", key: "payments" },
    startsDaysAgo: 0,
    findings: 1,
    fixes: 1,
    silentBefore: false,
    rhythm: WEEKLY_RHYTHM,
    volume: RHYTHM_VOLUME,
  },
  weeklyOutage: {
    kind: "weeklyOutage",
    target: { dimension: "scanner", key: "sca", also: ["sast"] },
    startsDaysAgo: 2,
    findings: 0,
    fixes: 1,
    silentBefore: false,
    rhythm: WEEKLY_RHYTHM,
    volume: RHYTHM_VOLUME,
  },
  unusualDay: {
    kind: "unusualDay",
    target: { dimension: "group", key: "payments" },
    startsDaysAgo: 1,
    days: 1,
    findings: 10,
    fixes: 1 / 10,
    silentBefore: false,
    rhythm: WEEKLY_RHYTHM,
    volume: RHYTHM_VOLUME,
  },
};

/** The scenario of a key, if it is one. */
export function scenarioOf(apiKey: string): Scenario | undefined {
  const kind = (Object.keys(SCENARIO_KEYS) as ScenarioKind[]).find((k) => SCENARIO_KEYS[k] === apiKey);
  return kind ? SCENARIOS[kind] : undefined;
}

/** Multipliers of one cell on one day: findings (violations follow), and fixed violations. */
export type CellEffect = (asset: number, scanner: number, day: number) => readonly [number, number];

const NONE = [1, 1] as const;

/**
 * The per-cell effect of a scenario on the days around `today` (a day number), or undefined for an
 * account without one. Asset and scanner are indices into the account's lists.
 */
export function effectOf(
  scenario: Scenario | undefined,
  assets: readonly FilterOption[],
  scanners: readonly FilterOption[],
  today: string,
): CellEffect | undefined {
  if (!scenario) return undefined;
  const start = dayNumber(today) - scenario.startsDaysAgo;
  const { dimension, key, also = [] } = scenario.target;
  const keys = new Set([key, ...also]);
  const hit =
    dimension === "group"
      ? new Set(assets.flatMap((a, i) => (keys.has(a.displayValue.split("/")[0]?.trim() ?? "") ? [i] : [])))
      : new Set(scanners.flatMap((s, i) => (keys.has(s.value) ? [i] : [])));
  const end = scenario.days === undefined ? Number.POSITIVE_INFINITY : start + scenario.days - 1;
  const after = [scenario.findings, scenario.fixes] as const;
  const before = scenario.silentBefore ? ([0, 1] as const) : NONE;
  return (asset, scanner, day) => {
    if (!hit.has(dimension === "group" ? asset : scanner)) return NONE;
    return day < start ? before : day <= end ? after : NONE;
  };
}

/** A day's share of a plain weekday under a scenario's weekly rhythm (day: days since 1970-01-01). */
export type DayShape = (day: number) => number;

/** The scenario's weekly rhythm (times its volume), or undefined for one that keeps the model's own. */
export function shapeOf(scenario: Scenario | undefined): DayShape | undefined {
  const rhythm = scenario?.rhythm;
  if (!rhythm) return undefined;
  // 1970-01-01 was a Thursday, ISO weekday 4.
  const volume = scenario?.volume ?? 1;
  return (day) => (rhythm[(((day + 3) % 7) + 7) % 7] ?? 1) * volume;
}
