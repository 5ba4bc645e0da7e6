import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { commandForm } from "../../sandbox/slack/client/payloads.ts";
import { slackSignature } from "../../sandbox/slack/index.ts";
import { serveRpc } from "./child.ts";
import { judgeReply } from "./helpful.ts";
import { startSink } from "./sink.ts";
import { type Summary, summarize } from "./stats.ts";

/**
 * The bench's Slack: signs slash commands and POSTs them over keep-alive HTTP (no stand-in state, so
 * the sender is never the bottleneck), and receives the app's response_url posts on a sink of its
 * own. Runs as a child process (`spawnChild(new URL("./slash-sender.ts", import.meta.url))`).
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
  /** Slack gives up after 3 s; so do we. */
  timeoutMs?: number;
  /** How long to keep the sink open for late response_url posts. */
  replyGraceMs?: number;
}

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
  /** Commands acknowledged 200 that got no answer within the grace period. */
  lost: number;
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

function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(0));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve(-1));
    req.end(body);
  });
}

let seq = 0;

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

/** Fires `rate` signed commands per second for `durationMs`, timing every ack from its scheduled time. */
export async function openLoop(a: OpenLoopArgs): Promise<OpenLoopResult> {
  const sink = startSink(false);
  const sinkUrl = await sink.listen();
  const total = Math.max(1, Math.round((a.rate * a.durationMs) / 1000));
  const gap = 1000 / a.rate;
  const timeoutMs = a.timeoutMs ?? 3_000;
  const latencies: number[] = [];
  const lags: number[] = [];
  const statuses: Record<string, number> = {};
  const scheduled = new Map<number, number>();
  const acked = new Set<number>();
  const inflight: Promise<void>[] = [];
  let timeouts = 0;
  const t0 = performance.now() + 20;
  const fire = (due: number) => {
    const cmd = signedCommand(a, sinkUrl, a.text);
    const sentAt = performance.now();
    scheduled.set(cmd.n, sentAt);
    lags.push(sentAt - due);
    inflight.push(
      post(a.url, cmd.headers, cmd.body, timeoutMs).then((status) => {
        const ms = performance.now() - sentAt;
        if (status === 200) acked.add(cmd.n);
        if (status === -1 && ms >= timeoutMs) timeouts++;
        countStatus(statuses, status);
        latencies.push(status === -1 ? Math.max(ms, timeoutMs) : ms);
      }),
    );
  };
  // Timers tick about every millisecond; each tick sends whatever has come due. Latency is timed
  // from the actual send: this process does nothing else, so its lag (reported) stays small.
  for (let i = 0; i < total; ) {
    const now = performance.now();
    while (i < total && t0 + i * gap <= now) fire(t0 + i++ * gap);
    if (i < total)
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(gap, t0 + i * gap - now) - 0.2)));
  }
  await Promise.all(inflight);
  const elapsed = performance.now() - t0;
  const graceUntil = performance.now() + (a.replyGraceMs ?? 5_000);
  while (sink.first.size < acked.size && performance.now() < graceUntil)
    await new Promise((r) => setTimeout(r, 50));
  const replyMs: number[] = [];
  for (const [n, e] of sink.first) {
    const due = scheduled.get(n);
    if (due !== undefined) replyMs.push(e.at - due);
  }
  const lost = [...acked].filter((n) => !sink.first.has(n)).length;
  const busy = sink.busy.size;
  await sink.close();
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
    lost,
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
    rss: () => process.memoryUsage().rss,
  });
}
