// A preload for the processes Slack talks to in the ack section (`BENCH_CHILD_FLAGS="--import
// ./test/bench/ack-trace.mjs"`, a path from the checkout's root): records, for every HTTP request,
// when it reached the process's request handler, how long until its answer was written, and its
// body's length (which tells a slash command from a click, a modal submission or a type-ahead), and
// writes `/tmp/bench-ack-trace/<pid>.json` when the process exits. `test/bench/ack-trace-read.ts`
// reads it. Plain JavaScript, so it loads before tsx does.
import dc from "node:diagnostics_channel";
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const dir = "/tmp/bench-ack-trace";
const started = new WeakMap();
// Flat triples (start ms, ms inside the process, body bytes): one array, not an object per request.
const requests = [];
dc.subscribe("http.server.request.start", ({ request }) => {
  started.set(request, performance.now());
});
dc.subscribe("http.server.response.finish", ({ request }) => {
  const t = started.get(request);
  if (t === undefined) return;
  requests.push(t, performance.now() - t, Number(request.headers["content-length"] ?? 0));
});
process.on("exit", () => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/${process.pid}.json`, JSON.stringify({ argv: process.argv.slice(1), requests }));
});
