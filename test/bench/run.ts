import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runBench, SECTIONS } from "./main.ts";
import { performanceSection } from "./perf-docs.ts";
import { renderReport } from "./report.ts";
import {
  DEFAULT_RUNTIME,
  needsOtherNode,
  parseRuntime,
  rerunUnder,
  resolveRuntime,
  withoutNodeFlag,
} from "./runtime.ts";

const RESULTS = fileURLToPath(new URL("./results/", import.meta.url));

/**
 * `insights-digest bench [--quick] [--only a,b] [--subs N] [--out DIR] [--node 22|24|machine|PATH]`: runs every section (or the named ones:
 * render, ack (threads and web + worker), bad-input, storms, engine, faults, drivers, ask, monday; `--subs` sizes the
 * Monday slot, its one-against-two worker pair at most 10,000), prints the Markdown report and
 * writes latest.md / latest.json (plus timestamped copies) and docs-performance.md (the run's rows for
 * docs/performance.md, each naming the timestamped report) to the results folder. Exit code 0 when the bench ran (targets may still be missed: the report says which), 1 when
 * a section could not run. Every process of the run uses one Node (runtime.ts): 22 by default
 * (BENCH_NODE, or --node, chooses another), fetched from the npm registry when this machine runs another.
 */
export async function benchCli(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      quick: { type: "boolean", default: false },
      out: { type: "string" },
      only: { type: "string" },
      node: { type: "string" },
      subs: { type: "string" },
    },
  });
  const subs = values.subs === undefined ? undefined : Number(values.subs);
  if (subs !== undefined && !(Number.isInteger(subs) && subs >= 100)) {
    process.stderr.write(`--subs wants a whole number of subscriptions, 100 or more (got ${values.subs})\n`);
    return 2;
  }
  let runtime: ReturnType<typeof parseRuntime>;
  try {
    runtime = parseRuntime(values.node ?? process.env.BENCH_NODE ?? DEFAULT_RUNTIME);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const only = values.only?.split(",").map((x) => x.trim());
  const unknown = only?.filter((x) => !(SECTIONS as readonly string[]).includes(x)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(`Unknown section ${unknown.join(", ")}; sections: ${SECTIONS.join(", ")}\n`);
    return 2;
  }
  if (runtime.kind !== "machine" && needsOtherNode(runtime, process)) {
    let binary: string;
    try {
      binary = resolveRuntime(runtime, (line) => void process.stderr.write(`${line}\n`));
    } catch (err) {
      process.stderr.write(`insights-digest bench: ${(err as Error).message}\n`);
      return 1;
    }
    process.stderr.write(
      `insights-digest bench: measuring on ${binary} (this machine runs Node ${process.version})\n`,
    );
    return rerunUnder(binary, ["bench", ...withoutNodeFlag(args)]);
  }
  const out = values.out ?? RESULTS;
  mkdirSync(out, { recursive: true });
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  log(`insights-digest bench${values.quick ? " --quick" : ""}: results go to ${out}`);
  const results = await runBench({ quick: values.quick === true, log, only, subs });
  const markdown = renderReport(results);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const stamp = results.meta.startedAt.replace(/[:.]/g, "-").slice(0, 19);
  const kind = `${results.meta.quick ? "quick" : "full"}${only ? `-${only.join("+")}` : ""}${subs === undefined ? "" : `-${subs}`}`;
  writeFileSync(join(out, "latest.md"), markdown);
  writeFileSync(join(out, "latest.json"), json);
  writeFileSync(join(out, `${stamp}-${kind}.md`), markdown);
  writeFileSync(join(out, `${stamp}-${kind}.json`), json);
  // Rows for docs/performance.md, naming the timestamped report they come from (any run, --only too).
  writeFileSync(join(out, "docs-performance.md"), performanceSection(results, `${stamp}-${kind}.md`));
  process.stdout.write(markdown);
  return results.meta.errors.length > 0 ? 1 : 0;
}
