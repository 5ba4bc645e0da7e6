// A preload for a child process of the bench (`BENCH_CHILD_FLAGS="--import ./test/bench/heap-sample.mjs"`,
// a path from the checkout's root): samples every allocation, the ones the garbage collector took
// included, and writes `/tmp/bench-heap/<pid>.heapprofile` when the process exits. What a storm's worker
// allocates per digest, and where, then comes from `test/bench/heap-owners.ts`. Plain JavaScript, so it
// loads before tsx does.
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const dir = "/tmp/bench-heap";
const session = new Session();
session.connect();
session.post("HeapProfiler.enable");
session.post("HeapProfiler.startSampling", {
  samplingInterval: 16_384,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
process.on("exit", () => {
  // The main thread's inspector session answers synchronously, so the file is written before the exit.
  session.post("HeapProfiler.stopSampling", (err, reply) => {
    if (err) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/${process.pid}.heapprofile`, JSON.stringify(reply.profile));
  });
});
