import type { Account } from "./accounts.ts";
import { dayNumber } from "./days.ts";
import { hash3, hashInts, hashString, mix32, unit } from "./hash.ts";
import { SCANNER_CATALOGUE } from "./names.ts";
import { type CellEffect, type DayShape, effectOf, scenarioOf, shapeOf } from "./scenarios.ts";

/** One day's numbers for a selection of assets and scanners. */
export interface Counts {
  findings: number;
  violations: number;
  fixedViolations: number;
  mergedViolations: number;
}

/** Per-account constants derived once: which (asset, scanner) pairs are active and how busy. */
interface Model {
  seed: number;
  scannerCount: number;
  assetIndex: Map<string, number>;
  scannerIndex: Map<string, number>;
  /** Mean findings per weekday for pair `asset * scannerCount + scanner`; 0 = never scanned. */
  pairMean: Float64Array;
  /** Share of findings that are policy violations, per pair. */
  pairRatio: Float64Array;
  phases: [number, number, number];
  /**
   * Per asset selection (`*` for every asset, else its assets' indices) and day, the plain model's
   * numbers summed per scanner (findings, violations, fixed, merged for scanner 0, then 1, …): a
   * selection asked again, with any scanner filter, reads its days back instead of walking its assets
   * again. Cleared whole past `MAX_KEPT_DAYS` days in all.
   */
  kept: Map<string, Map<number, Float64Array>>;
  keptDays: number;
  /** Every asset's index, in order. */
  allAssets: number[];
  /** Every scanner's index, in order. */
  allScanners: number[];
}

const MAX_KEPT_DAYS = 50_000;
const NO_EFFECT = [1, 1] as const;
const models = new WeakMap<Account, Model>();

function modelOf(account: Account): Model {
  const cached = models.get(account);
  if (cached) return cached;
  const seed = hashString(account.apiKey);
  const base = 1.4 + 1.6 * unit(hashInts(seed, 1));
  const nS = account.scanners.length;
  const pairMean = new Float64Array(account.assets.length * nS);
  const pairRatio = new Float64Array(account.assets.length * nS);
  account.assets.forEach((asset, a) => {
    const assetHash = hashString(asset.value, seed);
    // Skewed: most assets are quiet, a few are busy, like real estates.
    const assetWeight = 0.15 + 2.4 * unit(assetHash) ** 2;
    account.scanners.forEach((scanner, s) => {
      const pairHash = hashString(scanner.value, assetHash);
      const kind = SCANNER_CATALOGUE.find((c) => c.id === scanner.value);
      // Code and dependency scanners cover nearly everything; the others skip some assets.
      const active = unit(pairHash) >= (scanner.value === "sast" || scanner.value === "sca" ? 0.04 : 0.2);
      const scannerWeight = kind?.weight ?? 0.5;
      pairMean[a * nS + s] = active ? base * assetWeight * scannerWeight : 0;
      pairRatio[a * nS + s] = 0.2 + 0.45 * unit(mix32(pairHash));
    });
  });
  const phase = (salt: number) => 2 * Math.PI * unit(hashInts(seed, salt));
  const model: Model = {
    seed,
    scannerCount: nS,
    assetIndex: new Map(account.assets.map((o, i) => [o.value, i])),
    scannerIndex: new Map(account.scanners.map((o, i) => [o.value, i])),
    pairMean,
    pairRatio,
    phases: [phase(2), phase(3), phase(4)],
    kept: new Map(),
    keptDays: 0,
    allAssets: account.assets.map((_, i) => i),
    allScanners: account.scanners.map((_, i) => i),
  };
  models.set(account, model);
  return model;
}

/** Indices selected by a filter list: none or empty = all; unknown ids select nothing. */
function select(ids: readonly string[] | undefined, index: Map<string, number>, size: number): number[] {
  if (!ids || ids.length === 0) return Array.from({ length: size }, (_, i) => i);
  const picked = new Set<number>();
  for (const id of ids) {
    const i = index.get(id);
    if (i !== undefined) picked.add(i);
  }
  return [...picked].sort((x, y) => x - y);
}

function dayTotals(
  model: Model,
  d: number,
  assets: number[],
  scanners: number[],
  effect?: CellEffect,
  shape?: DayShape,
  /** When given, each pair's numbers are also added to its scanner's four slots here. */
  perScanner?: Float64Array,
): Counts {
  const weekday = (((d + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  const rhythm = weekday === 0 || weekday === 6 ? 0.3 : 1;
  const [p1, p2, p3] = model.phases;
  // Slow waves give every range a visible trend; the short one adds week-to-week movement.
  const trend =
    1 + 0.25 * Math.sin((2 * Math.PI * d) / 97 + p1) + 0.08 * Math.sin((2 * Math.PI * d) / 23 + p2);
  // A scenario's own weekly rhythm replaces the model's, steady: no waves, a constant fix rate.
  const fixRate = shape ? 0.5 : 0.5 + 0.2 * Math.sin((2 * Math.PI * d) / 131 + p3);
  const dayMult = shape ? shape(d) : rhythm * trend;
  const out: Counts = { findings: 0, violations: 0, fixedViolations: 0, mergedViolations: 0 };
  for (const a of assets) {
    for (const s of scanners) {
      const p = a * model.scannerCount + s;
      const [more, fixMore] = effect ? effect(a, s, d) : NO_EFFECT;
      const mean = (model.pairMean[p] ?? 0) * dayMult * more;
      if (mean === 0) continue;
      const h = hash3(model.seed, d, p);
      const findings = Math.floor(mean * (0.35 + 1.3 * ((h & 0xffff) / 65_536)) + ((h >>> 16) & 0xff) / 256);
      if (findings === 0) continue;
      // floor(x * r + u) with r < 1 and u < 1 never exceeds x, so violations ≤ findings etc.
      const violations = Math.floor(findings * (model.pairRatio[p] ?? 0) + (h >>> 24) / 256);
      const h2 = mix32(h ^ 0x5bd1e995);
      const fixed = Math.floor(
        violations * fixRate * fixMore * (0.5 + 0.9 * ((h2 & 0xffff) / 65_536)) + ((h2 >>> 16) & 0xff) / 256,
      );
      const merged = Math.floor(violations * 0.15 + (h2 >>> 24) / 256);
      out.findings += findings;
      out.violations += violations;
      out.fixedViolations += Math.min(fixed, violations);
      out.mergedViolations += merged;
      if (perScanner) {
        const at = s * 4;
        perScanner[at] = (perScanner[at] ?? 0) + findings;
        perScanner[at + 1] = (perScanner[at + 1] ?? 0) + violations;
        perScanner[at + 2] = (perScanner[at + 2] ?? 0) + Math.min(fixed, violations);
        perScanner[at + 3] = (perScanner[at + 3] ?? 0) + merged;
      }
    }
  }
  return out;
}

/**
 * A counter for one selection, reused across the days of a query. Empty or missing lists mean
 * "no filter"; ids the account does not have are ignored, so a filter of only unknown ids yields zeros.
 * A scenario account's numbers depend on `today` (its planted change is relative to it); without
 * `today` they are the plain model's.
 */
export function countsFor(
  account: Account,
  assetIds?: readonly string[],
  scannerIds?: readonly string[],
  today?: string,
): (day: string) => Counts {
  const model = modelOf(account);
  const scenario = scenarioOf(account.apiKey);
  const effect = today ? effectOf(scenario, account.assets, account.scanners, today) : undefined;
  // A scenario's rhythm is its account's whatever the day: it does not move with today.
  const shape = shapeOf(scenario);
  const scanners = select(scannerIds, model.scannerIndex, account.scanners.length);
  const filtered = Boolean(assetIds?.length);
  // No asset filter: every asset, as the model lists them (no list of a large account's indices per query).
  const assets = filtered ? select(assetIds, model.assetIndex, account.assets.length) : model.allAssets;
  // The plain model's days are kept per asset selection; a scenario's depend on today and are not.
  const days = effect || shape ? undefined : keptDaysOf(model, filtered ? assets.join(",") : "*");
  return (day) => {
    const d = dayNumber(day);
    if (!days) return dayTotals(model, d, assets, scanners, effect, shape);
    const per = keptDay(model, days, d, assets);
    const out: Counts = { findings: 0, violations: 0, fixedViolations: 0, mergedViolations: 0 };
    for (const sc of scanners) {
      const at = sc * 4;
      out.findings += per[at] ?? 0;
      out.violations += per[at + 1] ?? 0;
      out.fixedViolations += per[at + 2] ?? 0;
      out.mergedViolations += per[at + 3] ?? 0;
    }
    return out;
  };
}

/**
 * Computes ahead the per-scanner days from `from` to `to` (inclusive), so that the first queries over
 * them cost what later ones do: a bench whose first measured run would otherwise pay this stand-in's
 * own warm-up on the machine the app shares with it.
 */
export function warmCounts(account: Account, from: string, to: string): number {
  const model = modelOf(account);
  const days = keptDaysOf(model, "*");
  let n = 0;
  for (let d = dayNumber(from); d <= dayNumber(to); d++) {
    keptDay(model, days, d, model.allAssets);
    n++;
  }
  return n;
}

/** The kept days of one asset selection of the plain model. */
function keptDaysOf(model: Model, key: string): Map<number, Float64Array> {
  let days = model.kept.get(key);
  if (!days) {
    days = new Map();
    model.kept.set(key, days);
  }
  return days;
}

/** One day of an asset selection of the plain model, summed per scanner (computed once while kept). */
function keptDay(model: Model, days: Map<number, Float64Array>, d: number, assets: number[]): Float64Array {
  const hit = days.get(d);
  if (hit) return hit;
  const per = new Float64Array(model.scannerCount * 4);
  dayTotals(model, d, assets, model.allScanners, undefined, undefined, per);
  if (model.keptDays >= MAX_KEPT_DAYS) {
    for (const other of model.kept.values()) other.clear();
    model.keptDays = 0;
  }
  days.set(d, per);
  model.keptDays++;
  return per;
}

/**
 * The numbers of one day for a selection: the sums over the selected assets and scanners.
 * Pure and deterministic from (api key, day, asset, scanner) — and today, for a scenario account;
 * tests use it as the oracle.
 */
export function dailyCounts(
  account: Account,
  day: string,
  assetIds?: string[],
  scannerIds?: string[],
  today?: string,
): Counts {
  return countsFor(account, assetIds, scannerIds, today)(day);
}

/** Whether a scanner ever reports on an asset in this account (some pairs are never scanned). */
export function isScanned(account: Account, assetIndex: number, scannerIndex: number): boolean {
  const model = modelOf(account);
  return (model.pairMean[assetIndex * model.scannerCount + scannerIndex] ?? 0) > 0;
}
