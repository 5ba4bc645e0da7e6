import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import { spawnChild } from "../child.ts";
import { quantile, round } from "../stats.ts";
import { buildMix } from "./mix.ts";
import { spawnBare, spawnProduct } from "./procs.ts";
import { kindTails, windowsOf } from "./window.ts";
import { startWorld } from "./world.ts";

/**
 * Bare Bolt beside the app's load: web + worker and a bare Bolt app, each sent the realistic mix at
 * 300/s by a sender of its own, in rounds of three 3 s windows — the web alone, bare Bolt alone, then
 * both at once. The third window puts bare Bolt on a machine as busy as the app's own run makes it
 * (the worker, Redis, the stand-ins and the answers' receiver beside it), so the ratio of the two p99s
 * there is what the app adds to an ack on equal terms; the first two are the ack target's own terms.
 *   node --import tsx test/bench/ack/beside-load.ts [rounds=6] [warm-up seconds=20]
 */

const [roundsArg = "6", warmArg = "20"] = process.argv.slice(2);
const rounds = Number(roundsArg);
const warmS = Number(warmArg);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50 || !(warmS >= 0 && warmS <= 600)) {
  process.stderr.write("usage: beside-load.ts [rounds 1–50] [warm-up seconds 0–600]\n");
  process.exit(2);
}

const world = await startWorld({ workspaces: 50, usersPerWorkspace: 10 });
// One sender each, so the window where both run has each timed by a loop of its own.
const webSender = spawnChild(new URL("../slash-sender.ts", import.meta.url));
const bareSender = spawnChild(new URL("../slash-sender.ts", import.meta.url));
const logDir = mkdtempSync(join(tmpdir(), "insights-beside-load-"));
const env = { ...world.env, WEB_CONCURRENCY: "1" };
const worker = await spawnProduct("worker", env, { logDir });
const web = await spawnProduct("web", env, { logDir, name: "web" });
const bare = await spawnBare(SANDBOX_SIGNING_SECRET, { logDir });
const mix = buildMix(world.workspaces, 2_000, "mix");
const toWeb = windowsOf(webSender, mix);
const toBare = windowsOf(bareSender, mix);
const seen = {
  webAlone: [] as number[],
  bareAlone: [] as number[],
  web: [] as number[],
  bare: [] as number[],
  // The shared windows' handed-off acks (commands and clicks): web's and bare Bolt's p99, and their ratio.
  handedWeb: [] as number[],
  handedBare: [] as number[],
  handedRatio: [] as number[],
  // The web's acks that carry their answer (modal submissions, menu searches) as one set, p99 per shared
  // window (the target judges each kind; the set is reported beside it).
  inAck: [] as number[],
};
// Per kind of request, the shared windows' ack p99s: web's and bare Bolt's.
const together = { web: kindTails(), bare: kindTails() };
const median = (xs: number[]) => round(quantile(xs, 0.5), 2);

try {
  process.stdout.write(`logs in ${logDir}\n`);
  await toWeb(web, 300, warmS * 1_000);
  await toBare(bare, 300, warmS * 1_000);
  for (let i = 0; i < rounds; i++) {
    const a = (await toWeb(web, 300, 3_000)).result;
    const b = (await toBare(bare, 300, 3_000)).result;
    const [{ result: c }, { result: d }] = await Promise.all([
      toWeb(web, 300, 3_000),
      toBare(bare, 300, 3_000),
    ]);
    seen.webAlone.push(a.ackMs.p99);
    seen.bareAlone.push(b.ackMs.p99);
    seen.web.push(c.ackMs.p99);
    seen.bare.push(d.ackMs.p99);
    seen.handedWeb.push(c.byClass["handed-off"].ackMs.p99);
    seen.handedBare.push(d.byClass["handed-off"].ackMs.p99);
    seen.handedRatio.push(c.byClass["handed-off"].ackMs.p99 / d.byClass["handed-off"].ackMs.p99);
    seen.inAck.push(c.byClass["in-ack"].ackMs.p99);
    together.web.add(c);
    together.bare.add(d);
    process.stdout.write(
      `round ${i + 1}: alone web ${a.ackMs.p99} / bare ${b.ackMs.p99} ms; together web ${c.ackMs.p99} / bare ${d.ackMs.p99} ms (handed-off ${c.byClass["handed-off"].ackMs.p99} / ${d.byClass["handed-off"].ackMs.p99}; answered in the ack, web ${c.byClass["in-ack"].ackMs.p99})\n`,
    );
  }
  const ratio = (x: number[], y: number[]) => round(quantile(x, 0.5) / quantile(y, 0.5), 2);
  const bareKinds = new Map(together.bare.medians().map((k) => [k.label, k.p99]));
  const inAckKinds = together.web
    .medians()
    .filter((k) => k.label.startsWith("modal") || k.label === "type-ahead");
  const byKind = together.web.medians().map((k) => {
    const theirs = bareKinds.get(k.label) ?? Number.NaN;
    return `${k.label} ${round(k.p99, 2)} / ${round(theirs, 2)} (${round(k.p99 / theirs, 2)} ×)`;
  });
  process.stdout.write(
    `alone: web ${median(seen.webAlone)} ms, bare ${median(seen.bareAlone)} ms, ${ratio(seen.webAlone, seen.bareAlone)} ×\n` +
      `together: web ${median(seen.web)} ms, bare ${median(seen.bare)} ms, ${ratio(seen.web, seen.bare)} ×\n` +
      `together, by kind (median of the windows' ack p99, web / bare ms): ${byKind.join("; ")}\n` +
      `handed-off (commands and clicks), together: web ${median(seen.handedWeb)} ms, bare ${median(seen.handedBare)} ms; ratio per round median ${median(seen.handedRatio)} × (range ${round(Math.min(...seen.handedRatio), 2)}–${round(Math.max(...seen.handedRatio), 2)} ×, ${rounds} rounds): ${median(seen.handedRatio) <= 1.3 ? "met" : "missed"} (≤ 1.3 ×)\n` +
      `answered in the ack (modal submissions, menu searches), web beside bare Bolt, each kind (median of the windows' p99): ${inAckKinds.map((k) => `${k.label} ${round(k.p99, 2)} ms`).join(", ")}: ${inAckKinds.every((k) => k.p99 <= 25) ? "met" : "missed"} (≤ 25 ms); all of them as one set ${median(seen.inAck)} ms (range ${round(Math.min(...seen.inAck), 2)}–${round(Math.max(...seen.inAck), 2)} ms)\n`,
  );
} finally {
  await web.stop();
  await bare.stop();
  await worker.stop();
  for (const s of [webSender, bareSender]) await s.kill().catch(() => undefined);
  await world.close();
}
