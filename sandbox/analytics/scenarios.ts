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
} as const;

export type ScenarioKind = keyof typeof SCENARIO_KEYS;

export interface Scenario {
  kind: ScenarioKind;
  /** The planted driver: an asset group (parent name) or a scanner id. */
  target: { dimension: "group" | "scanner"; key: string };
  /** Days before today the change starts (0 = today). */
  startsDaysAgo: number;
  /** Findings multiplier from then on (0 = silent), and the fix multiplier (fixes as a share of violations). */
  findings: number;
  fixes: number;
  /** Before the start, the target is silent (a scanner not yet rolled out). */
  silentBefore: boolean;
}

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
  const { dimension, key } = scenario.target;
  const hit =
    dimension === "group"
      ? new Set(assets.flatMap((a, i) => (a.displayValue.split("/")[0]?.trim() === key ? [i] : [])))
      : new Set(scanners.flatMap((s, i) => (s.value === key ? [i] : [])));
  const after = [scenario.findings, scenario.fixes] as const;
  const before = scenario.silentBefore ? ([0, 1] as const) : NONE;
  return (asset, scanner, day) => {
    if (!hit.has(dimension === "group" ? asset : scanner)) return NONE;
    return day >= start ? after : before;
  };
}
