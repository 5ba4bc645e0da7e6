import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { buildAccount, DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { startPrivateRedis } from "../../sandbox/redis.ts";
import { defaultWorkspace } from "../../sandbox/slack/seed.ts";
import { DEMO, startStack } from "../../sandbox/stack.ts";
import { readQuestion } from "../../src/ask/read.ts";
import { connect } from "../e2e/helpers.ts";
import { CORPUS, CORPUS_B, CORPUS_NOW, CORPUS_TZ } from "../fixtures/ask-corpus.ts";
import { HELDOUT, HELDOUT_B } from "../fixtures/ask-heldout.ts";
import { HELDOUT_C } from "../fixtures/ask-heldout-c.ts";
import { HELDOUT_D } from "../fixtures/ask-heldout-d.ts";
import { HELDOUT_E } from "../fixtures/ask-heldout-e.ts";
import { HELDOUT_F } from "../fixtures/ask-heldout-f.ts";
import { microsPerCall, quantile, round, type Summary, sleep, summarize } from "./stats.ts";

/**
 * Questions in plain words, as people ask them in the app's DM: one at a time, each answered before
 * the next. Twelve people of one time zone take turns, so the questions follow each other as soon as
 * the last is answered while each DM still sees at most one of the app's posts a second (Slack's pace
 * per channel, which would otherwise hold a reply and count as its time). The reply time runs
 * from sending the question to the answer's chat.postMessage reaching the Slack stand-in; the
 * analytics emulator runs with its default latency (none added). Also: what reading one question
 * costs (the pure reader, a small and a 5,000-asset account).
 */

/** A mix of what people ask: digests, drivers, two-query comparisons, trends, a CSV, one it cannot read. */
export const ASK_QUESTIONS = [
  "how are we doing",
  "Why did violations go up in payments last week?",
  "violations in October compared with September",
  "show the trend of sast findings over the last 30 days",
  "fix rate this quarter vs last quarter",
  "what changed in platform this month",
  "findings in the api since Nov 1",
  "export last month as csv",
  "secret scanning violations in Q3",
  "send me payments violations every Monday at 9",
  "what's the weather in Berlin",
  "how many violatoins lst week vs the week before",
];

export interface AskBenchResult {
  questions: number;
  /** People taking turns (each question from the next one's DM). */
  askers: number;
  rounds: number;
  /** Every reply, ms. */
  replyMs: Summary;
  /** The first round only: nothing of these questions cached yet. */
  firstRoundReplyMs: Summary;
  ackMs: Summary;
  /** The first questions after the app started (digest threads starting, first queries), not counted above, ms. */
  warmupMs: number[];
  /** Slowest question (p50 of its rounds), ms. */
  slowest: { question: string; ms: number };
  /** The reader alone: µs per question over the corpus. */
  readUs: { demo: number; assets5000: number };
  /** The reader alone, question by question over every corpus (absent in reports before it was added). */
  readPerQuestionUs?: ReaderTimes;
}

/** The reader's time per question, µs, over every question of every corpus, on two accounts. */
export interface ReaderTimes {
  questions: number;
  demo: { p50: number; p99: number; max: number };
  assets5000: { p50: number; p99: number; max: number };
}

/** The people who ask, all in DEMO.member's zone so every turn reads the same periods. */
const ASKERS = Array.from({ length: 12 }, (_, i) => `U0ASKER${String(i).padStart(2, "0")}`);

export async function measureAsk(o: { rounds: number }): Promise<AskBenchResult> {
  const redis = await startPrivateRedis();
  const seed = defaultWorkspace();
  const users = seed.users ?? [];
  const zone = users.find((u) => u.id === DEMO.member)?.tz;
  const stack = await startStack({
    redisUrl: redis.url,
    prefix: "bench-ask",
    logLevel: "info",
    slack: {
      workspaces: [{ ...seed, users: [...users, ...ASKERS.map((id) => ({ id, name: id, tz: zone }))] }],
    },
  });
  try {
    await connect(stack);
    const replies: number[] = [];
    const first: number[] = [];
    const acks: number[] = [];
    const per = new Map<string, number[]>();
    // When the app last posted in each asker's DM.
    const lastPost = new Map<string, number>();
    let turn = 0;
    const ask = async (text: string) => {
      const userId = ASKERS[turn++ % ASKERS.length] as string;
      await sleep(Math.max(0, (lastPost.get(userId) ?? 0) + 1_100 - Date.now()));
      const sentAt = Date.now();
      const posted = await stack.slack.sendDm({ teamId: DEMO.teamId, userId, text });
      if (!posted.delivered) throw new Error(`not delivered: ${posted.refused}`);
      const call = await stack.slack.waitFor(
        () =>
          stack.slack
            .calls({ method: "chat.postMessage", ok: true })
            .find((c) => c.args.thread_ts === posted.ts && c.args.channel === posted.channelId),
        { timeoutMs: 30_000, intervalMs: 5 },
      );
      lastPost.set(userId, call.at);
      return { ms: call.at - sentAt, ackMs: posted.delivered.ackMs };
    };
    // The digest threads start with the app; their first jobs pay for it. A person asks later.
    const warmupMs: number[] = [];
    for (const text of ["help", "hi", "what can you do"]) warmupMs.push((await ask(text)).ms);
    for (let round = 0; round < o.rounds; round++) {
      for (const text of ASK_QUESTIONS) {
        const { ms, ackMs } = await ask(text);
        acks.push(ackMs);
        replies.push(ms);
        if (round === 0) first.push(ms);
        per.set(text, [...(per.get(text) ?? []), ms]);
      }
    }
    const slowest = [...per.entries()]
      .map(([question, ms]) => ({ question, ms: summarize(ms).p50 }))
      .sort((a, b) => b.ms - a.ms)[0] ?? { question: "", ms: 0 };
    return {
      questions: replies.length,
      askers: ASKERS.length,
      rounds: o.rounds,
      replyMs: summarize(replies),
      firstRoundReplyMs: summarize(first),
      ackMs: summarize(acks),
      warmupMs,
      slowest,
      readUs: readCost(),
      readPerQuestionUs: readerTimes(),
    };
  } finally {
    await stack.close().catch(() => undefined);
    await redis.destroy().catch(() => undefined);
  }
}

function readCost(): { demo: number; assets5000: number } {
  const questions = [...CORPUS, ...CORPUS_B].map((e) => e.q);
  const cost = (apiKey: string, assetCount?: number) => {
    const account = buildAccount(assetCount ? { apiKey, assetCount } : { apiKey });
    const ctx = { now: CORPUS_NOW, tz: CORPUS_TZ, assets: account.assets, scanners: account.scanners };
    let i = 0;
    return round(
      microsPerCall(() => readQuestion(questions[i++ % questions.length] as string, ctx), 2_000),
      1,
    );
  };
  return { demo: cost(DEMO_API_KEY), assets5000: cost("bench-ask-5000", 5_000) };
}

/** Every question of every corpus and held-out batch: what people type, the reader's whole diet. */
function allQuestions(): string[] {
  return [
    ...CORPUS,
    ...CORPUS_B,
    ...HELDOUT,
    ...HELDOUT_B,
    ...HELDOUT_C,
    ...HELDOUT_D,
    ...HELDOUT_E,
    ...HELDOUT_F,
  ].map((e) => e.q);
}

/**
 * The reader's time per question: each question read alone, timed on its own (the median of
 * `reps` reads, after every question was read once to warm up), then the quantiles over questions.
 * The p99 is the question people wait longest for, not an average that hides it.
 */
export function readerTimes(reps = 15): ReaderTimes {
  const questions = allQuestions();
  const times = (apiKey: string, assetCount?: number) => {
    const account = buildAccount(assetCount ? { apiKey, assetCount } : { apiKey });
    const ctx = { now: CORPUS_NOW, tz: CORPUS_TZ, assets: account.assets, scanners: account.scanners };
    for (const q of questions) readQuestion(q, ctx);
    const perQuestion = questions.map((q) => {
      const samples: number[] = [];
      for (let r = 0; r < reps; r++) {
        const start = process.hrtime.bigint();
        readQuestion(q, ctx);
        samples.push(Number(process.hrtime.bigint() - start) / 1000);
      }
      return quantile(samples, 0.5);
    });
    const at = (q: number) => round(quantile(perQuestion, q), 1);
    return { p50: at(0.5), p99: at(0.99), max: at(1) };
  };
  return {
    questions: questions.length,
    demo: times(DEMO_API_KEY),
    assets5000: times("bench-ask-5000", 5_000),
  };
}

// Run alone for the reader's figures only (no stack): npx tsx test/bench/ask.ts
const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(realpathSync(invokedPath)).href)
  process.stdout.write(`${JSON.stringify(readerTimes(), null, 2)}\n`);
