import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import { spawnChild } from "../child.ts";
import { quantile, round } from "../stats.ts";
import { buildMix } from "./mix.ts";
import { spawnBare, spawnProduct } from "./procs.ts";
import { windowsOf } from "./window.ts";
import { startWorld } from "./world.ts";

/**
 * Web + worker (as the Procfile starts them) under the ack section's realistic mix for longer than
 * the section's 1.5 s windows, from fresh processes and empty caches:
 *   node --import tsx test/bench/ack/long-run.ts cold [rate=1000] [rounds=4] [seconds=10]
 *     rounds back to back from cold: ack p50 / p99 / max, busy notes, lost, answers p99, web CPU;
 *   node --import tsx test/bench/ack/long-run.ts steady [warm s=20] [pairs=6] [window s=3]
 *     a fresh bare Bolt beside them; both get `warm` seconds of 300/s first, then windows alternate:
 *     each side's ack p99 per window and the ratio of their medians, past the warm-up.
 * The worker's environment is this process's: `WORKER_NICE=0 …` measures it at the normal priority.
 */

const [how = "cold", ...rest] = process.argv.slice(2);
if (how !== "cold" && how !== "steady") {
  process.stderr.write(
    "usage: long-run.ts cold [rate] [rounds] [seconds] | steady [warm s] [pairs] [window s]\n",
  );
  process.exit(2);
}
const [a, b, c] = rest.map(Number);
const world = await startWorld({ workspaces: 50, usersPerWorkspace: 10 });
const sender = spawnChild(new URL("../slash-sender.ts", import.meta.url));
const logDir = mkdtempSync(join(tmpdir(), "insights-long-run-"));
const env = { ...world.env, WEB_CONCURRENCY: "1" };
const worker = await spawnProduct("worker", env, { logDir });
const web = await spawnProduct("web", env, { logDir });
const bare = how === "steady" ? await spawnBare(SANDBOX_SIGNING_SECRET, { logDir }) : undefined;
const send = windowsOf(sender, buildMix(world.workspaces, 4_000, "mix"));
const say = (line: string) => process.stdout.write(`${line}\n`);

try {
  say(`logs in ${logDir}`);
  if (how === "cold") {
    const [rate, rounds, seconds] = [a || 1_000, b || 4, c || 10];
    for (let i = 1; i <= rounds; i++) {
      const { result: r, cpuMsPerRequest } = await send(web, rate, seconds * 1_000);
      say(
        `round ${i} (${rate}/s, ${seconds} s): sent ${r.sent}, ack p50 ${r.ackMs.p50} p99 ${r.ackMs.p99} max ${r.ackMs.max} ms, busy ${r.busy}, lost ${r.lost}, answers p99 ${r.replyMs.p99} ms, web ${round(cpuMsPerRequest, 3)} ms CPU per request`,
      );
    }
  } else if (bare) {
    const [warmS, pairs, windowS] = [a || 20, b || 6, c || 3];
    await send(bare, 300, warmS * 1_000);
    await send(web, 300, warmS * 1_000);
    const p99s = { app: [] as number[], bare: [] as number[] };
    for (let i = 1; i <= pairs; i++) {
      const sides = [
        ["bare", bare],
        ["app", web],
      ] as const;
      const line: string[] = [];
      for (const [side, target] of i % 2 === 1 ? sides : [...sides].reverse()) {
        const { result: r, cpuMsPerRequest } = await send(target, 300, windowS * 1_000);
        p99s[side].push(r.ackMs.p99);
        line.push(
          `${side} p99 ${r.ackMs.p99} p50 ${r.ackMs.p50} ms, CPU ${round(cpuMsPerRequest, 3)} ms${side === "app" ? `, busy ${r.busy}, lost ${r.lost}` : ""}`,
        );
      }
      say(`pair ${i}: ${line.join("; ")}`);
    }
    const [app, yardstick] = [quantile(p99s.app, 0.5), quantile(p99s.bare, 0.5)];
    say(
      `median ack p99: app ${round(app, 2)} ms, bare Bolt ${round(yardstick, 2)} ms, ${round(app / yardstick, 2)} ×`,
    );
  }
} finally {
  await web.stop();
  await worker.stop();
  await bare?.stop();
  await sender.kill().catch(() => undefined);
  await world.close();
}
