import { Redis } from "ioredis";
import { buildAccount } from "../../sandbox/analytics/index.ts";
import { createFilterListsCache } from "../../src/digests/filter-lists.ts";
import { createKeyScheme } from "../../src/store/keys.ts";

/**
 * What a type-ahead keystroke's read of the account's lists costs the web process, against a real
 * Redis: `node --import tsx test/bench/filter-lists-read.ts REDIS_URL [assets]` (default 5,000, the
 * emulator's generated account). The lists are stored as a digest stores them, read once, then read
 * again and again as keystrokes do: wall and CPU time per read, and the bytes stored. Runs on
 * whatever tree it is in, so an older commit's figures come from the same file copied into a
 * worktree of it.
 */
const url = process.argv[2];
if (!url) {
  process.stderr.write("usage: filter-lists-read.ts REDIS_URL [assets]\n");
  process.exit(2);
}
const count = Number(process.argv[3] ?? 5_000);
const redis = new Redis(url);
const account = buildAccount({ apiKey: `filter-lists-read-${count}`, assetCount: count });
const keys = createKeyScheme({ prefix: `bench-filter-lists-${process.pid}` });
const lists = createFilterListsCache({ redis, keys });
const ref = { teamId: "T0BENCHREAD" };
const key = keys.insightsCache(ref, "filter-lists");
try {
  await lists.put(ref, { assets: account.assets, scanners: account.scanners });
  for (let i = 0; i < 200; i++) await lists.get(ref);
  const runs = 2_000;
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < runs; i++) await lists.get(ref);
  const wall = (performance.now() - t) / runs;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1_000 / runs;
  process.stdout.write(
    `read of held lists: ${wall.toFixed(3)} ms wall, ${cpuMs.toFixed(3)} ms CPU per keystroke (${count} assets, ${await redis.strlen(key)} bytes stored)\n`,
  );
} finally {
  await redis.del(key);
  await redis.quit();
}
