import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import { spawnChild } from "../child.ts";
import { quantile, round } from "../stats.ts";
import { buildMix } from "./mix.ts";
import { cpuMs, type Proc, spawnBare, spawnProduct } from "./procs.ts";
import { kindTails, windowsOf } from "./window.ts";
import { startWorld } from "./world.ts";

/**
 * Two web processes, A as the Procfile starts it and B with extra Node flags after the Procfile's,
 * beside one worker, under 300 slash commands/s: windows alternated A/B, B/A, … within one run, so
 * what the machine does between runs falls on both sides alike. Prints each pair and the medians of
 * each web's CPU per command (every thread), then each web's CPU per second while idle. The worker
 * serves both and is not compared. Separate runs of fresh processes move by more than a small
 * change on this machine; pairs like these are how to judge one.
 *   node --import tsx test/bench/ack/web-pairs.ts [pairs=8] [B's flags…]
 * e.g. `… web-pairs.ts 8 --no-experimental-async-context-frame` (under Node 22) measures that flag.
 * `… web-pairs.ts 8 bare` makes B the bare Bolt app instead (it answers nothing on response_url): the
 * web CPU target's ratio once both are past their warm-up. Each window's ack p99 is printed too, and
 * each side's median of them; `MIX=mix …` sends the ack section's realistic mix (clicks, type-ahead,
 * modals) instead of slash commands alone, and `WARM_S=20 …` gives each side that many seconds of warm-up
 * (10 by default). `MIX=mix WARM_S=20 … web-pairs.ts 6 bare` is the ack ratio past warm-up (what
 * `long-run.ts steady 20 6 3` measured before it was folded in here).
 */

const [pairsArg = "8", ...bArgs] = process.argv.slice(2);
const bare = bArgs[0] === "bare";
const bFlags = bare ? bArgs.slice(1) : bArgs;
const pairs = Math.max(1, Number(pairsArg));
const world = await startWorld({ workspaces: 50, usersPerWorkspace: 10 });
const sender = spawnChild(new URL("../slash-sender.ts", import.meta.url));
const logDir = mkdtempSync(join(tmpdir(), "insights-web-pairs-"));
const env = { ...world.env, WEB_CONCURRENCY: "1" };
const worker = await spawnProduct("worker", env, { logDir });
const sides: [string, Proc][] = [
  ["A", await spawnProduct("web", env, { logDir, name: "web-a" })],
  [
    "B",
    bare
      ? await spawnBare(SANDBOX_SIGNING_SECRET, { logDir, nodeArgs: bFlags })
      : await spawnProduct("web", env, { logDir, name: "web-b", nodeArgs: bFlags }),
  ],
];
const mix = process.env.MIX === "mix" ? "mix" : "commands";
const send = windowsOf(sender, buildMix(world.workspaces, 2_000, mix));
const window = async (web: Proc, durationMs: number) => {
  const { result, cpuMsPerRequest } = await send(web, 300, durationMs);
  return { cpu: cpuMsPerRequest, result };
};

try {
  process.stdout.write(
    `B is ${bare ? "bare Bolt" : "a web"} started with: ${bFlags.join(" ") || "(nothing more)"}; logs in ${logDir}\n`,
  );
  // Both past the JIT's warm-up before anything counts.
  const warmMs = (Number(process.env.WARM_S) || 10) * 1_000;
  for (const [, web] of sides) await window(web, warmMs);
  const seen: Record<string, number[]> = { A: [], B: [] };
  const tails: Record<string, number[]> = { A: [], B: [] };
  const byKind: Record<string, ReturnType<typeof kindTails>> = { A: kindTails(), B: kindTails() };
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    const line: string[] = [];
    for (const [name, web] of order) {
      const { cpu, result } = await window(web, 3_000);
      seen[name]?.push(cpu);
      tails[name]?.push(result.ackMs.p99);
      byKind[name]?.add(result);
      line.push(`${name} ${round(cpu, 3)} (ack p99 ${result.ackMs.p99})`);
    }
    process.stdout.write(
      `pair ${i + 1}: ${line.join(", ")} ms of CPU per ${mix === "mix" ? "request" : "command"}\n`,
    );
  }
  for (const [name] of sides)
    process.stdout.write(
      `median ${name}: ${round(quantile(seen[name] ?? [], 0.5), 3)} ms per request, ack p99 ${round(quantile(tails[name] ?? [], 0.5), 2)} ms\n`,
    );
  const [aTail, bTail] = [quantile(tails.A ?? [], 0.5), quantile(tails.B ?? [], 0.5)];
  process.stdout.write(`ack p99 A / B: ${round(aTail / bTail, 2)} ×\n`);
  for (const [name] of sides) {
    const parts = (byKind[name]?.medians() ?? []).map(
      (k) => `${k.label} ${k.sent} sent, p99 ${round(k.p99, 2)}`,
    );
    process.stdout.write(`${name} by kind (median of the windows' ack p99, ms): ${parts.join("; ")}\n`);
  }
  const idle0 = sides.map(([, web]) => cpuMs(web.pid));
  await new Promise((r) => setTimeout(r, 10_000));
  sides.forEach(([name, web], i) => {
    process.stdout.write(
      `idle ${name}: ${round((cpuMs(web.pid) - (idle0[i] ?? 0)) / 10, 2)} ms of CPU a second\n`,
    );
  });
} finally {
  for (const [, web] of sides) await web.stop();
  await worker.stop();
  await sender.kill().catch(() => undefined);
  await world.close();
}
