import { performance } from "node:perf_hooks";
import { serveRpc, spawnChild } from "./child.ts";

/**
 * How far apart two processes' wall-clock readings (`performance.timeOrigin + performance.now()`,
 * what the answer sink stamps and the sender compares against its sends) are: for each fresh child,
 * 200 IPC round trips, and at the fastest one the child's reading minus the midpoint of the parent's
 * (the offset), good to within half that round trip (the bound).
 *   node --import tsx test/bench/clock-offset.ts [children=5]
 */

const wall = () => performance.timeOrigin + performance.now();

if (process.send) {
  serveRpc({ now: () => wall() });
} else {
  const children = Number(process.argv[2] ?? 5);
  if (!Number.isInteger(children) || children < 1 || children > 50) {
    process.stderr.write("usage: clock-offset.ts [children 1–50]\n");
    process.exit(2);
  }
  for (let c = 1; c <= children; c++) {
    const child = spawnChild(new URL(import.meta.url));
    let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
    for (let i = 0; i < 200; i++) {
      const t0 = wall();
      const theirs = await child.call<number>("now");
      const t1 = wall();
      if (t1 - t0 < best.rtt) best = { rtt: t1 - t0, offset: theirs - (t0 + t1) / 2 };
    }
    await child.kill();
    process.stdout.write(
      `child ${c}: offset ${best.offset.toFixed(3)} ms, within ±${(best.rtt / 2).toFixed(3)} ms\n`,
    );
  }
}
