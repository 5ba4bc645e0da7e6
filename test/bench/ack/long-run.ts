import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnChild } from "../child.ts";
import { round } from "../stats.ts";
import { buildMix } from "./mix.ts";
import { spawnProduct } from "./procs.ts";
import { windowsOf } from "./window.ts";
import { startWorld } from "./world.ts";

/**
 * Web + worker (as the Procfile starts them) under the ack section's realistic mix for longer than
 * the section's 1.5 s windows, from fresh processes and empty caches: rounds back to back from cold,
 * each with its ack p50 / p99 / max, busy notes, lost, answers p99 and the web's CPU.
 *   node --import tsx test/bench/ack/long-run.ts [cold] [rate=1000] [rounds=4] [seconds=10]
 * The worker's environment is this process's: `WORKER_NICE=0 …` measures it at the normal priority.
 * The ratio to bare Bolt past warm-up is `MIX=mix WARM_S=20 … web-pairs.ts 6 bare` (this tool's former
 * `steady` mode).
 */

const args = process.argv.slice(2);
if (args[0] === "cold") args.shift();
const [a, b, c] = args.map(Number);
if (args.length > 3 || [a, b, c].some((n) => n !== undefined && !(n > 0))) {
  process.stderr.write("usage: long-run.ts [cold] [rate] [rounds] [seconds] (positive numbers)\n");
  process.exit(2);
}
const world = await startWorld({ workspaces: 50, usersPerWorkspace: 10 });
const sender = spawnChild(new URL("../slash-sender.ts", import.meta.url));
const logDir = mkdtempSync(join(tmpdir(), "insights-long-run-"));
const env = { ...world.env, WEB_CONCURRENCY: "1" };
const worker = await spawnProduct("worker", env, { logDir });
const web = await spawnProduct("web", env, { logDir });
const send = windowsOf(sender, buildMix(world.workspaces, 4_000, "mix"));
const say = (line: string) => process.stdout.write(`${line}\n`);

try {
  say(`logs in ${logDir}`);
  const [rate, rounds, seconds] = [a || 1_000, b || 4, c || 10];
  for (let i = 1; i <= rounds; i++) {
    const { result: r, cpuMsPerRequest } = await send(web, rate, seconds * 1_000);
    say(
      `round ${i} (${rate}/s, ${seconds} s): sent ${r.sent}, ack p50 ${r.ackMs.p50} p99 ${r.ackMs.p99} max ${r.ackMs.max} ms, busy ${r.busy}, lost ${r.lost}, answers p99 ${r.replyMs.p99} ms, web ${round(cpuMsPerRequest, 3)} ms CPU per request`,
    );
  }
} finally {
  await web.stop();
  await worker.stop();
  await sender.kill().catch(() => undefined);
  await world.close();
}
