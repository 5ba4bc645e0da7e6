import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { Redis } from "ioredis";
import { startPrivateRedis } from "../../sandbox/redis.ts";
import { goldenCases, runGoldenCases } from "./drivers-cases.ts";

/**
 * Writes test/fixtures/drivers-golden.json.gz: the outcome of every golden drivers case with the code
 * checked out. Run it only to record a new reference on purpose (`npx tsx test/golden/capture-drivers.ts`);
 * the golden test then holds every later version to those numbers.
 */
const OUT = new URL("../fixtures/drivers-golden.json.gz", import.meta.url);

const server = await startPrivateRedis();
const redis = new Redis(server.url, { maxRetriesPerRequest: null });
try {
  const started = Date.now();
  const cases = goldenCases();
  const outcomes = await runGoldenCases(redis, cases);
  // One case per line (gzipped: 1.6 MB of JSON); the golden test shows a changed case as a diff.
  const lines = cases.map((c) => `  ${JSON.stringify(c.id)}: ${JSON.stringify(outcomes[c.id])}`);
  writeFileSync(OUT, gzipSync(`{\n${lines.join(",\n")}\n}\n`, { level: 9 }));
  process.stderr.write(`${cases.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} finally {
  await redis.quit();
  await server.destroy();
}
