import { buildAccount } from "../../sandbox/analytics/index.ts";
import { readQuestion } from "../../src/ask/read.ts";
import { matchFilter } from "../../src/digests/filter-match.ts";
import { optionsForQuery } from "../../templates/filter-menu.ts";
import { CORPUS, CORPUS_B, CORPUS_NOW, CORPUS_TZ } from "../fixtures/ask-corpus.ts";

/**
 * What one large account costs the pure code that walks its lists, per call:
 * `node --expose-gc --import tsx test/bench/large-account-cost.ts [assets]` (default 5,000 assets, the
 * emulator's generated account). Resolving a typed asset name (`asset:`, a subscription's filter, an
 * ambiguous name in a question), a type-ahead keystroke (the options the web process answers before
 * its ack) on a fresh copy of the list for each call and on one list, reading a question with the
 * account's names, and the memory a parsed list holds. Runs on whatever tree it is in, so an older
 * commit's figures come from the same file copied into a worktree of it.
 */
const count = Number(process.argv[2] ?? 5_000);
const assets = buildAccount({ apiKey: `large-cost-${count}`, assetCount: count }).assets;
const sample = assets[Math.floor(assets.length / 3)] ?? assets[0];
if (!sample) throw new Error("the account has no assets");
const out = (label: string, ms: number) =>
  process.stdout.write(`${label}: ${ms.toFixed(3)} ms per call (${count} assets)\n`);

function perCall(runs: number, f: () => void): number {
  const t = performance.now();
  for (let i = 0; i < runs; i++) f();
  return (performance.now() - t) / runs;
}
const quietly = (f: () => void) => () => {
  try {
    f();
  } catch {
    // an unknown or ambiguous name throws its suggestions: that is the cost measured
  }
};

const name = sample.displayValue;
for (const [label, typed, runs] of [
  ["name: exact", name, 200],
  ["name: by value", sample.value, 200],
  ["name: unique child", name.split(" / ").pop() ?? name, 200],
  ["name: unknown (the three closest)", `${name.slice(0, -2)}zz`, 20],
] as const)
  out(
    label,
    perCall(
      runs,
      quietly(() => matchFilter("asset", typed, assets)),
    ),
  );

for (const q of ["p", "pay"]) {
  out(
    `type-ahead "${q}", a fresh list each call`,
    perCall(30, () =>
      optionsForQuery(
        "asset",
        assets.map((a) => ({ ...a })),
        q,
      ),
    ),
  );
  out(
    `type-ahead "${q}", one list`,
    perCall(300, () => optionsForQuery("asset", assets, q)),
  );
}

const questions = [...CORPUS, ...CORPUS_B].map((e) => e.q);
const ctx = { now: CORPUS_NOW, tz: CORPUS_TZ, assets, scanners: [] };
let k = 0;
out(
  "question read",
  perCall(4_000, () => readQuestion(questions[k++ % questions.length] as string, ctx)),
);

const gc = (globalThis as { gc?: () => void }).gc;
const text = JSON.stringify({ assets, scanners: [] });
if (gc) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const held = Array.from({ length: 20 }, () => JSON.parse(text));
  gc();
  const mb = (process.memoryUsage().heapUsed - before) / held.length / 1e6;
  process.stdout.write(
    `a parsed list: ${mb.toFixed(2)} MB on the heap, ${(text.length / 1e6).toFixed(2)} MB of text\n`,
  );
} else process.stdout.write("a parsed list: run with --expose-gc to measure\n");
