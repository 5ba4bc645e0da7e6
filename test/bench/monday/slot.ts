import { mondayPlan } from "../plan.ts";
import { round } from "../stats.ts";
import { runSlot } from "./section.ts";

/**
 * The Monday slot alone, for finding what the people typing wait on during it: one slot of N
 * subscriptions (argv[2], default 3,000) with two workers and the mix at 100/s, no hold, no two-web
 * run, no one-against-two pair. Prints the figures the section judges the replies by.
 *
 *   npx tsx test/bench/monday/slot.ts 3000
 */
const subs = Number(process.argv[2] ?? 3_000);
const run = await runSlot(mondayPlan(subs), subs, 2, { hold: false, webDouble: false }, (line) =>
  console.log(line),
);
const w = run.web;
console.log(
  JSON.stringify(
    {
      subs,
      slotS: run.slotS,
      digestsPerSec: run.storm.digestsPerSec,
      rateTo90: run.rateTo90,
      lost: run.channels.lost,
      duplicated: run.channels.duplicated,
      sent: w.sent,
      busy: w.busy,
      lostReplies: w.lost,
      ackP99: w.byClass["handed-off"]?.ackMs.p99,
      ackP99All: w.ackMs.p99,
      replies: {
        n: w.replyMs.n,
        p50: w.replyMs.p50,
        p90: w.replyMs.p90,
        p99: w.replyMs.p99,
        max: w.replyMs.max,
      },
      byLabel: Object.fromEntries(
        Object.entries(w.byLabel).map(([k, v]) => [
          k,
          { sent: v.sent, p50: v.replyMs.p50, p99: v.replyMs.p99 },
        ]),
      ),
      windows: w.replyWindows.map(
        (x) =>
          `${x.fromS}s n${x.n} p50 ${Math.round(x.p50)} p99 ${Math.round(x.p99)} max ${Math.round(x.max)} busy ${x.busy}`,
      ),
      analytics: run.analyticsByOperation,
      cpu: Object.fromEntries(run.cpu.map((c) => [c.name, c.cpuS])),
      rateCheck: round(w.achievedRate, 1),
    },
    null,
    1,
  ),
);
process.exit(0);
