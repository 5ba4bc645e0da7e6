import { readFileSync } from "node:fs";
import { where } from "./ack/profile.ts";

/**
 * Bytes allocated per unit of work, by the nearest function of ours on the stack (allocations inside
 * a library or Node are charged to the function of ours that called in; with none, to "(none)"), from
 * a `.heapprofile` of test/bench/heap-sample.mjs, against a second one:
 * `node --import tsx test/bench/heap-owners.ts FILE UNITS [BASE BASE_UNITS] [rows]`, e.g. the worker's
 * files (the one whose stacks hold src/jobs frames) of
 * `BENCH_CHILD_FLAGS="--import ./test/bench/heap-sample.mjs" node --import tsx
 * test/bench/storm/profile-worker.ts 2000 200 1 drivers` and of the same with `plain`, units 2000: KB
 * per digest that the drivers add, the most first.
 */

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const OURS = /\/(src|templates)\//;

function owners(file: string): { bytes: Map<string, number>; ours: boolean } {
  const head = (JSON.parse(readFileSync(file, "utf8")) as { head: HeapNode }).head;
  const bytes = new Map<string, number>();
  let ours = false;
  const walk = (node: HeapNode, owner: string) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const mine = OURS.test(url);
    if (/\/src\/jobs\//.test(url)) ours = true;
    const at = mine ? `${functionName || "(anonymous)"} ${where(url, lineNumber)}` : owner;
    bytes.set(at, (bytes.get(at) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, at);
  };
  walk(head, "(none)");
  return { bytes, ours };
}

const [file, units = "1", baseFile, baseUnits = "1", rows = "30"] = process.argv.slice(2);
if (!file) {
  process.stderr.write("usage: heap-owners.ts FILE UNITS [BASE BASE_UNITS] [rows]\n");
  process.exit(2);
}
const other = owners(file);
const base = baseFile ? owners(baseFile) : { bytes: new Map<string, number>(), ours: false };
const per = (n: number, u: string) => n / Math.max(1, Number(u)) / 1000;
const keys = new Set([...other.bytes.keys(), ...base.bytes.keys()]);
const found = [...keys]
  .map((k) => {
    const kb = per(other.bytes.get(k) ?? 0, units);
    const was = per(base.bytes.get(k) ?? 0, baseUnits);
    return { k, kb, added: kb - was };
  })
  .sort((a, b) => (baseFile ? b.added - a.added : b.kb - a.kb));
const total = (m: Map<string, number>, u: string) =>
  per(
    [...m.values()].reduce((a, b) => a + b, 0),
    u,
  );
process.stdout.write(
  `KB allocated per unit: ${total(other.bytes, units).toFixed(1)}${baseFile ? ` against ${total(base.bytes, baseUnits).toFixed(1)}` : ""}${other.ours ? "" : " (no src/jobs frame: not the worker's file?)"}\n`,
);
for (const r of found.slice(0, Number(rows)))
  process.stdout.write(
    `${baseFile ? `${r.added.toFixed(1).padStart(8)} ` : ""}${r.kb.toFixed(1).padStart(8)}  ${r.k}\n`,
  );
