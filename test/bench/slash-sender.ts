import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { commandForm } from "../../sandbox/slack/client/payloads.ts";
import { slackSignature } from "../../sandbox/slack/index.ts";
import { labelOf, type RequestSpec, signedRequest } from "./ack/requests.ts";
import type { Collected } from "./answer-sink.ts";
import { type Child, serveRpc, spawnChild } from "./child.ts";
import { judgeReply } from "./helpful.ts";
import { startSink } from "./sink.ts";
import { type Summary, summarize } from "./stats.ts";

/**
 * The bench's Slack: signs slash commands and POSTs them over keep-alive HTTP (no stand-in state, so
 * the sender is never the bottleneck). An open-loop run's answers on response_url go to a sink in a
 * process of its own (answer-sink.ts), so that taking them never delays the reading of an ack; a
 * closed-loop run, which times no ack, reads them on a sink of its own here. Runs as a child process
 * (`spawnChild(new URL("./slash-sender.ts", import.meta.url))`).
 */

export interface Target {
  /** The app's `/slack/events` URL. */
  url: string;
  secret: string;
  teamId: string;
  userId: string;
  channelId: string;
}

export interface OpenLoopArgs extends Target {
  /** Requests per second, fired on a fixed schedule whatever the answers do (open loop). */
  rate: number;
  durationMs: number;
  text: string;
  /** A mix to send instead of `/insights <text>` from the target's user: request i is `requests[i % length]`. */
  requests?: RequestSpec[];
  /** Where in `requests` this run starts (successive runs continue the mix). */
  offset?: number;
  /** Slack gives up after 3 s; so do we. */
  timeoutMs?: number;
  /** How long to keep the sink open for late response_url posts. */
  replyGraceMs?: number;
  /** The width of `replyWindows`, s [10]. */
  windowS?: number;
  /** Stop sending at the `stopOpenLoop` call, `durationMs` being the most it runs. */
  untilStopped?: boolean;
}

export type AckClass = "handed-off" | "in-ack";
/** How a request is answered: in its ack (modal submissions, menu searches) or handed off to the worker. */
export const ackClassOf = (s: RequestSpec): AckClass =>
  s.kind === "view" || s.kind === "options" ? "in-ack" : "handed-off";

export interface OpenLoopResult {
  sent: number;
  /** Ack latency: from the request leaving the sender to the app's complete HTTP answer. */
  ackMs: Summary;
  statuses: Record<string, number>;
  timeouts: number;
  /** How late the sender fired, p99: shows the sender kept its schedule. */
  senderLagP99Ms: number;
  achievedRate: number;
  /** Answers received on response_url (a "busy" note is not one), and their time from the command's send. */
  replies: number;
  replyMs: Summary;
  /** Commands first answered "busy" (the backlog was past its bound); their answer came later. */
  busy: number;
  /**
   * Reply times by when the request was sent, in windows of `windowS` from the first send: where in
   * a run the slow answers fall (a slot's first seconds, or throughout).
   */
  replyWindows: { fromS: number; n: number; p50: number; p99: number; max: number; busy: number }[];
  /** Commands acknowledged 200 that got no answer within the grace period. */
  lost: number;
  /** Ack latency and answers by kind of request (`command`, `range`, `why`, `modal`…). */
  byLabel: Record<string, { sent: number; ackMs: Summary; replies: number; replyMs: Summary; lost: number }>;
  /**
   * Ack latency by how the request is answered: `handed-off` (commands and clicks, acked at once and
   * answered on their response_url) and `in-ack` (modal submissions and menu searches, whose answer is
   * the ack itself) — the two classes the ack targets judge apart.
   */
  byClass: Record<AckClass, { sent: number; ackMs: Summary }>;
  /** Modal submissions: who submitted and when the ack was awaited (wall clock ms), to match Slack calls against. */
  viewWindows: {
    teamId: string;
    userId: string;
    channelId: string;
    from: number;
    to: number;
    /**
     * Other requests of the same person, or in the same channel, sent in the 5 s before this
     * submission's ack was seen: work of theirs still running may make a lookup about them that
     * falls inside this window without this submission having asked for it.
     */
    neighbours: number;
  }[];
  /** Menu searches (type-ahead) sent, and how many acks carried at least one option. */
  searches: { sent: number; withOptions: number };
}

export interface ClosedLoopArgs extends Target {
  texts: string[];
  concurrency: number;
  replyTimeoutMs: number;
}

export interface ClosedLoopResult {
  sent: number;
  statuses: Record<string, number>;
  replies: number;
  unhelpful: number;
  problems: string[];
  elapsedMs: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 512 });

/** POSTs and resolves with the status (-1: no answer) and the answer's body. */
function postFor(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", () => resolve({ status: 0, text }));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: -1, text: "" }));
    req.end(body);
  });
}

const post = async (url: string, headers: Record<string, string>, body: string, timeoutMs: number) =>
  (await postFor(url, headers, body, timeoutMs)).status;

/** Words of the "busy" note (BUSY_TEXT), which a slash command's ack may carry. */
const BUSY_MARK = "Insights is busy right now";

let seq = 0;
/** Set by `stopOpenLoop`: the open-ended run sends no more. */
let stopRequested = false;

let answers: Promise<{ child: Child; url: string }> | undefined;

/** The open-loop runs' answer sink, started once and shared by every run (seqs never repeat). */
function answerSink() {
  answers ??= (async () => {
    const child = spawnChild(new URL("./answer-sink.ts", import.meta.url));
    return { child, url: await child.call<string>("listen") };
  })();
  return answers;
}

function signedCommand(t: Target, sinkUrl: string, text: string) {
  const n = ++seq;
  const body = commandForm(
    {
      teamId: t.teamId,
      domain: "bench",
      enterprise: null,
      isEnterpriseInstall: false,
      userId: t.userId,
      userName: "bench",
      appId: "A0INSIGHTS",
    },
    {
      command: "/insights",
      text,
      channelId: t.channelId,
      channelName: "general",
      responseUrl: `${sinkUrl}/r/${n}`,
      triggerId: `${n}.bench`,
    },
  );
  const ts = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/x-www-form-urlencoded",
    "x-slack-request-timestamp": String(ts),
    "x-slack-signature": slackSignature(t.secret, ts, body),
  };
  return { n, body, headers };
}

function countStatus(statuses: Record<string, number>, status: number) {
  const key = status === -1 ? "error" : String(status);
  statuses[key] = (statuses[key] ?? 0) + 1;
}

/**
 * Fires `rate` signed requests per second for `durationMs` (the target's `/insights <text>`, or the
 * given mix), timing every ack from its actual send.
 */
export async function openLoop(a: OpenLoopArgs): Promise<OpenLoopResult> {
  const { child: sink, url: sinkUrl } = await answerSink();
  stopRequested = false;
  let total = Math.max(1, Math.round((a.rate * a.durationMs) / 1000));
  const gap = 1000 / a.rate;
  const timeoutMs = a.timeoutMs ?? 3_000;
  const mix: RequestSpec[] = a.requests ?? [
    { kind: "command", teamId: a.teamId, userId: a.userId, channelId: a.channelId, text: a.text },
  ];
  const latencies: number[] = [];
  const lags: number[] = [];
  const statuses: Record<string, number> = {};
  const scheduled = new Map<number, { at: number; label: string; answered: boolean }>();
  const acked = new Set<number>();
  const ackBusy = new Set<number>();
  const perLabel = new Map<string, { sent: number; ack: number[] }>();
  const perClass: Record<AckClass, number[]> = { "handed-off": [], "in-ack": [] };
  const viewWindows: OpenLoopResult["viewWindows"] = [];
  const sentLog: { n: number; teamId: string; userId: string; channelId: string; at: number }[] = [];
  const inflight: Promise<void>[] = [];
  let timeouts = 0;
  // Menu searches, and how many acks carried at least one option (an empty answer is a menu with nothing to pick).
  const searches = { sent: 0, withOptions: 0 };
  const t0 = performance.now() + 20;
  const fire = (due: number, i: number) => {
    const spec = mix[((a.offset ?? 0) + i) % mix.length] as RequestSpec;
    const n = ++seq;
    const label = labelOf(spec);
    const { body, headers } = signedRequest(spec, n, `${sinkUrl}/r/${n}`, a.secret);
    const sentAt = performance.now();
    const wallFrom = Date.now();
    sentLog.push({ n, teamId: spec.teamId, userId: spec.userId, channelId: spec.channelId, at: wallFrom });
    // A modal's and a menu search's answer is the ack; commands and clicks are answered on their response_url.
    scheduled.set(n, { at: sentAt, label, answered: spec.kind === "view" || spec.kind === "options" });
    lags.push(sentAt - due);
    const own = perLabel.get(label) ?? { sent: 0, ack: [] };
    own.sent++;
    perLabel.set(label, own);
    inflight.push(
      postFor(a.url, headers, body, timeoutMs).then(({ status, text }) => {
        const ms = performance.now() - sentAt;
        if (status === 200) acked.add(n);
        if (status === 200 && text.includes(BUSY_MARK)) ackBusy.add(n);
        if (spec.kind === "options") {
          searches.sent++;
          if (status === 200 && /"options":\[\{/.test(text)) searches.withOptions++;
        }
        if (status === -1 && ms >= timeoutMs) timeouts++;
        countStatus(statuses, status);
        const latency = status === -1 ? Math.max(ms, timeoutMs) : ms;
        latencies.push(latency);
        own.ack.push(latency);
        perClass[ackClassOf(spec)].push(latency);
        if (spec.kind === "view") {
          const to = Date.now();
          // Counted now: what is sent after the ack cannot have made a lookup before it.
          const neighbours = sentLog.filter(
            (r) =>
              r.n !== n &&
              r.teamId === spec.teamId &&
              (r.userId === spec.userId || r.channelId === spec.channelId) &&
              r.at >= to - 5_000,
          ).length;
          viewWindows.push({
            teamId: spec.teamId,
            userId: spec.userId,
            channelId: spec.channelId,
            from: wallFrom,
            to,
            neighbours,
          });
        }
      }),
    );
  };
  // Timers tick about every millisecond; each tick sends whatever has come due. Latency is timed
  // from the actual send: this process does nothing else, so its lag (reported) stays small.
  for (let i = 0; i < total; ) {
    if (a.untilStopped && stopRequested) total = i;
    const now = performance.now();
    while (i < total && t0 + i * gap <= now) {
      fire(t0 + i * gap, i);
      i++;
    }
    if (i < total)
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(gap, t0 + i * gap - now) - 0.2)));
  }
  await Promise.all(inflight);
  const elapsed = performance.now() - t0;
  const collected = await sink.call<Collected>("collect", {
    seqs: [...scheduled.keys()],
    waitFor: [...acked].filter((n) => !scheduled.get(n)?.answered),
    graceMs: a.replyGraceMs ?? 5_000,
  });
  // The sink's clock is the wall clock; a send's is this process's `performance.now()`.
  const first = new Map(collected.first.map(([n, at]) => [n, at - performance.timeOrigin]));
  const replyMs: number[] = [];
  const byLabelReplies = new Map<string, number[]>();
  const windowMs = (a.windowS ?? 10) * 1_000;
  const byWindow = new Map<number, number[]>();
  for (const [n, at] of first) {
    const s = scheduled.get(n);
    if (!s) continue;
    replyMs.push(at - s.at);
    byLabelReplies.set(s.label, [...(byLabelReplies.get(s.label) ?? []), at - s.at]);
    const w = Math.floor((s.at - t0) / windowMs);
    byWindow.set(w, [...(byWindow.get(w) ?? []), at - s.at]);
  }
  const lostOf = (label?: string) =>
    [...acked].filter((n) => {
      const s = scheduled.get(n);
      return s && !s.answered && !first.has(n) && (label === undefined || s.label === label);
    }).length;
  const busySet = new Set([...collected.busy, ...ackBusy]);
  const busy = busySet.size;
  const busyByWindow = new Map<number, number>();
  for (const n of busySet) {
    const s = scheduled.get(n);
    if (!s) continue;
    const w = Math.floor((s.at - t0) / windowMs);
    busyByWindow.set(w, (busyByWindow.get(w) ?? 0) + 1);
  }
  const replyWindows = [...byWindow.entries()]
    .sort(([x], [y]) => x - y)
    .map(([w, ms]) => {
      const sum = summarize(ms);
      const fromS = (w * windowMs) / 1_000;
      return { fromS, n: sum.n, p50: sum.p50, p99: sum.p99, max: sum.max, busy: busyByWindow.get(w) ?? 0 };
    });
  const byLabel: OpenLoopResult["byLabel"] = {};
  for (const [label, own] of perLabel) {
    const replies = byLabelReplies.get(label) ?? [];
    byLabel[label] = {
      sent: own.sent,
      ackMs: summarize(own.ack),
      replies: replies.length,
      replyMs: summarize(replies),
      lost: lostOf(label),
    };
  }
  return {
    sent: total,
    ackMs: summarize(latencies),
    statuses,
    timeouts,
    senderLagP99Ms: summarize(lags).p99,
    achievedRate: Math.round((total / elapsed) * 1000),
    replies: replyMs.length,
    replyMs: summarize(replyMs),
    busy,
    replyWindows,
    lost: lostOf(),
    byLabel,
    byClass: {
      "handed-off": { sent: perClass["handed-off"].length, ackMs: summarize(perClass["handed-off"]) },
      "in-ack": { sent: perClass["in-ack"].length, ackMs: summarize(perClass["in-ack"]) },
    },
    viewWindows,
    searches,
  };
}

/** Sends each text with `concurrency` in flight, waits for its reply and judges it (see helpful.ts). */
export async function closedLoop(a: ClosedLoopArgs): Promise<ClosedLoopResult> {
  const sink = startSink(true);
  const sinkUrl = await sink.listen();
  const statuses: Record<string, number> = {};
  const problems: string[] = [];
  let replies = 0;
  let unhelpful = 0;
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    for (let i = next++; i < a.texts.length; i = next++) {
      const text = a.texts[i] as string;
      const cmd = signedCommand(a, sinkUrl, text);
      const status = await post(a.url, cmd.headers, cmd.body, 3_000);
      countStatus(statuses, status);
      const reply = status === 200 ? await sink.waitFor(cmd.n, a.replyTimeoutMs) : undefined;
      if (reply) replies++;
      const problem = status !== 200 ? `HTTP ${status}` : judgeReply(reply?.body);
      if (problem) {
        unhelpful++;
        if (problems.length < 20) problems.push(`${JSON.stringify(text).slice(0, 80)} → ${problem}`);
      }
    }
  };
  await Promise.all(Array.from({ length: a.concurrency }, lane));
  const elapsedMs = Math.round(performance.now() - started);
  await sink.close();
  return { sent: a.texts.length, statuses, replies, unhelpful, problems, elapsedMs };
}

if (process.send) {
  serveRpc({
    openLoop: (a: OpenLoopArgs) => openLoop(a),
    closedLoop: (a: ClosedLoopArgs) => closedLoop(a),
    /** Ends an `untilStopped` open loop: it sends nothing more, then collects its answers as usual. */
    stopOpenLoop: () => {
      stopRequested = true;
    },
    rss: () => process.memoryUsage().rss,
    /** The answer sink's process, for what it costs beside the sender. */
    sinkPid: async () => (await answerSink()).child.pid,
  });
}
