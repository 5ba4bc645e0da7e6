import type { FilterOption } from "../../src/analytics/types.ts";
import { hashInts, hashString, uuidFrom } from "./hash.ts";
import {
  DEMO_ASSETS,
  DEMO_SCANNERS,
  generatedAssetNames,
  SCANNER_CATALOGUE,
  SECOND_ASSETS,
  SECOND_SCANNERS,
} from "./names.ts";
import { SCENARIO_KEYS, scenarioOf } from "./scenarios.ts";

/** The built-in demo account's key: always known to every emulator. */
export const DEMO_API_KEY = "demo-analytics-key";
/** A second built-in account with other assets, scanners and numbers (for "two keys differ" tests). */
export const SECOND_API_KEY = "second-analytics-key";

/** Keys every emulator accepts: the demo, the second account and the scenario accounts. */
export const BUILT_IN_KEYS: readonly string[] = [
  DEMO_API_KEY,
  SECOND_API_KEY,
  ...Object.values(SCENARIO_KEYS),
];

/** One API key's catalogue. Its daily numbers come from `dailyCounts`, computed on demand. */
export interface Account {
  apiKey: string;
  scanners: FilterOption[];
  /** `value` is a UUID; `displayValue` is `parent / child` for nested assets. */
  assets: FilterOption[];
}

/** How to build an extra account; sizes are clamped to 1..10,000 assets and 1..8 scanners. */
export interface AccountSpec {
  apiKey: string;
  /** Default: 20–40, derived from the key. */
  assetCount?: number;
  /** Default 5. */
  scannerCount?: number;
}

function scannerOption(id: string): FilterOption {
  const entry = SCANNER_CATALOGUE.find((s) => s.id === id);
  return { value: id, displayValue: entry?.name ?? id };
}

function assetOptions(apiKey: string, names: readonly string[]): FilterOption[] {
  return names.map((name) => ({ value: uuidFrom(`${apiKey}\u0000asset\u0000${name}`), displayValue: name }));
}

/**
 * Builds the account of a key, deterministically: the same spec always yields the same ids and
 * names. The two built-in keys get hand-written catalogues unless a size is asked for.
 */
export function buildAccount(spec: AccountSpec): Account {
  const { apiKey } = spec;
  const sized = spec.assetCount !== undefined || spec.scannerCount !== undefined;
  if (!sized && apiKey === DEMO_API_KEY) {
    return { apiKey, scanners: DEMO_SCANNERS.map(scannerOption), assets: assetOptions(apiKey, DEMO_ASSETS) };
  }
  // Scenario accounts are the demo estate with their own ids and numbers, and one planted change.
  if (!sized && scenarioOf(apiKey)) {
    return { apiKey, scanners: DEMO_SCANNERS.map(scannerOption), assets: assetOptions(apiKey, DEMO_ASSETS) };
  }
  if (!sized && apiKey === SECOND_API_KEY) {
    return {
      apiKey,
      scanners: SECOND_SCANNERS.map(scannerOption),
      assets: assetOptions(apiKey, SECOND_ASSETS),
    };
  }
  const seed = hashString(apiKey);
  const assetCount = clamp(spec.assetCount ?? 20 + (seed % 21), 1, 10_000);
  const scannerCount = clamp(spec.scannerCount ?? 5, 1, SCANNER_CATALOGUE.length);
  const first = seed % SCANNER_CATALOGUE.length;
  const scanners = Array.from({ length: scannerCount }, (_, i) =>
    scannerOption(SCANNER_CATALOGUE[(first + i) % SCANNER_CATALOGUE.length]?.id ?? "sast"),
  );
  const names = generatedAssetNames(assetCount, (i, salt) => hashInts(seed, i, salt));
  return { apiKey, scanners, assets: assetOptions(apiKey, names) };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.floor(n)));
}

/**
 * Keys known to `accountFor`. A process-wide table because the public API looks accounts up by key
 * alone (tests compute expected numbers for keys that an emulator registered); the data is
 * deterministic, so sharing it between emulators in one process is harmless.
 */
const registry = new Map<string, Account>();

/** Registers (or re-registers, last spec wins) an account and returns it. */
export function registerAccount(spec: AccountSpec): Account {
  const account = buildAccount(spec);
  registry.set(spec.apiKey, account);
  return account;
}

/** The account of a known key (the built-in ones or any registered by `startEmulator`). */
export function accountFor(apiKey: string): Account | undefined {
  const known = registry.get(apiKey);
  if (known) return known;
  if (BUILT_IN_KEYS.includes(apiKey)) return registerAccount({ apiKey });
  return undefined;
}
