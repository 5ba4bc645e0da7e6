import { readFileSync } from "node:fs";
import { deflateRawSync, gunzipSync } from "node:zlib";
import { packText, unpackText } from "../../src/store/packed-text.ts";

/**
 * What packing a drivers result for Redis costs: deflated at zlib's default level, at level 3, and as
 * packText keeps it (as it is, below its raw bound): `node --import tsx test/bench/packed-text-level.ts`. The results are 200 recorded
 * drivers results (test/fixtures/drivers-golden.json.gz) in the shape the drivers cache stores.
 * Prints µs per pack and unpack and the packed length.
 */

const golden = JSON.parse(
  gunzipSync(readFileSync(new URL("../fixtures/drivers-golden.json.gz", import.meta.url))).toString("utf8"),
) as Record<string, { drivers?: unknown; previousSeries?: unknown }>;
const texts = Object.values(golden)
  .filter((o) => o.drivers)
  .slice(0, 200)
  .map((o) => JSON.stringify({ ok: true, value: { view: o.drivers, previousSeries: o.previousSeries } }));
const rounds = 20;
const average = (total: number) => Math.round(total / texts.length);
process.stdout.write(
  `${texts.length} results, ${average(texts.reduce((n, t) => n + t.length, 0))} characters of JSON each\n`,
);

const ways: [string, (text: string) => string][] = [
  ["zlib default (6)", (text) => deflateRawSync(Buffer.from(text)).toString("base64")],
  ["zlib level 3", (text) => deflateRawSync(Buffer.from(text), { level: 3 }).toString("base64")],
  ["packText", packText],
];
for (const [name, pack] of ways) {
  for (const t of texts) pack(t); // warm-up
  let started = performance.now();
  for (let r = 0; r < rounds; r++) for (const t of texts) pack(t);
  const packUs = ((performance.now() - started) * 1000) / (rounds * texts.length);
  const packed = texts.map(pack);
  started = performance.now();
  for (let r = 0; r < rounds; r++) for (const p of packed) unpackText(p);
  const unpackUs = ((performance.now() - started) * 1000) / (rounds * texts.length);
  process.stdout.write(
    `${name}: pack ${packUs.toFixed(1)} µs, unpack ${unpackUs.toFixed(1)} µs, ${average(packed.reduce((n, p) => n + p.length, 0))} characters packed\n`,
  );
}
