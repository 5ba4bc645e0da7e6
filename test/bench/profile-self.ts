import { compareSelf, summarizeProfile } from "./ack/profile.ts";

/**
 * Self time per function of a `.cpuprofile` per unit of work, against a second profile:
 * `node --import tsx test/bench/profile-self.ts FILE UNITS [BASE BASE_UNITS] [rows]`, e.g. the
 * worker's profiles of `BENCH_PROFILE_CHILDREN=1 node --import tsx test/bench/storm/profile-worker.ts
 * 2000 200 1 drivers` and of the same with `plain` (the largest file in /tmp/bench-prof each time),
 * units 2000: ms per digest that the drivers add, function by function, the most first. Without BASE,
 * the profile's own self times.
 */

const [file, units = "1", baseFile, baseUnits = "1", rows = "30"] = process.argv.slice(2);
if (!file) {
  process.stderr.write("usage: profile-self.ts FILE UNITS [BASE BASE_UNITS] [rows]\n");
  process.exit(2);
}
const all = Number.POSITIVE_INFINITY;
const other = { summary: summarizeProfile(file, all), units: Math.max(1, Number(units)) };
const base = baseFile
  ? { summary: summarizeProfile(baseFile, all), units: Math.max(1, Number(baseUnits)) }
  : { summary: { ...other.summary, busyMs: 0, top: [] }, units: 1 };
const { busy, rows: found } = compareSelf(base, other);
const ms = (n: number) => n.toFixed(3).padStart(8);
process.stdout.write(
  `busy ms per unit: ${busy.ms.toFixed(3)}${baseFile ? ` against ${busy.base.toFixed(3)}` : ""} (idle left out)\n`,
);
process.stdout.write(`${baseFile ? "   added     base      ms" : "      ms"}  function\n`);
for (const r of found.slice(0, Number(rows)))
  process.stdout.write(`${baseFile ? `${ms(r.added)} ${ms(r.base)} ` : ""}${ms(r.ms)}  ${r.fn}\n`);
