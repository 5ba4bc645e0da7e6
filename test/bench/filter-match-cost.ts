import { buildAccount } from "../../sandbox/analytics/index.ts";
import { matchFilter } from "../../src/digests/filter-match.ts";

/**
 * What resolving one typed asset name costs in a large account, per kind of name:
 * `node --import tsx test/bench/filter-match-cost.ts [assets]` (default 5,000). Every call uses the same
 * list, as an account's shared lists are; the first call of a kind includes whatever the list costs
 * to read once.
 */
const count = Number(process.argv[2] ?? 5_000);
const assets = buildAccount({ apiKey: `filter-cost-${count}`, assetCount: count }).assets;
const sample = assets[Math.floor(assets.length / 3)] ?? assets[0];
if (!sample) throw new Error("the account has no assets");
const name = sample.displayValue;
const cases: [string, string, number][] = [
  ["exact name", name, 200],
  ["value", sample.value, 200],
  ["child name", name.split(" / ").pop() ?? name, 200],
  ["typo (no match: the three closest)", `${name.slice(0, -2)}zz`, 20],
];
for (const [label, typed, runs] of cases) {
  const t = performance.now();
  for (let i = 0; i < runs; i++) {
    try {
      matchFilter("asset", typed, assets);
    } catch {
      // an unknown or ambiguous name throws its suggestions: that is the cost measured
    }
  }
  process.stdout.write(
    `${label}: ${((performance.now() - t) / runs).toFixed(3)} ms per call (${count} assets)\n`,
  );
}
