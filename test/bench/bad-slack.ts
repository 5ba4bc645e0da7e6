import { request } from "node:http";
import { connect } from "node:net";
import fc from "fast-check";
import { commandForm, interactionForm } from "../../sandbox/slack/client/payloads.ts";
import { slackSignature } from "../../sandbox/slack/index.ts";
import { judgeReply } from "./helpful.ts";
import { startSink } from "./sink.ts";

/**
 * 1,000 requests Slack would never send, or that someone else sends pretending to be Slack: no or
 * wrong signature, replays, garbage bodies that are correctly signed, broken JSON payloads, missing
 * fields, wrong methods and content types, and broken HTTP. The app must answer each (4xx for the
 * forged ones), never 5xx, never crash, and any reply it posts must still help.
 */

export interface BadSlackResult {
  sent: number;
  kinds: number;
  statuses: Record<string, number>;
  /** 5xx answers or no answer within 4 s (connection reset, timeout). */
  serverErrors: number;
  /** Answers that came only after Slack's 3 s (Bolt's unhandled-request timeout), by kind. */
  slowAnswers: Record<string, number>;
  /** Forged requests (unsigned, wrong secret, replayed) that were not refused with 401. */
  forgedAccepted: number;
  /** response_url posts the app made for the signed-but-odd commands, and the unhelpful ones among them. */
  replies: number;
  unhelpful: number;
  problems: string[];
}

interface Shot {
  kind: string;
  forged: boolean;
  method?: string;
  contentType?: string;
  body: string;
  sign: "ok" | "none" | "bad" | "old";
  raw?: string;
  seq?: number;
}

const actor = (teamId: string, userId: string) => ({
  teamId,
  domain: "bench",
  enterprise: null,
  isEnterpriseInstall: false,
  userId,
  userName: "x",
  appId: "A0INSIGHTS",
});

function shots(
  n: number,
  sinkUrl: string,
  team: { teamId: string; userId: string; channelId: string },
): Shot[] {
  const junk = fc.sample(fc.string({ unit: "binary", maxLength: 300 }), { numRuns: n, seed: 77 });
  const out: Shot[] = [];
  for (let i = 0; i < n; i++) {
    const text = junk[i] ?? "";
    const cmd = (fields: Partial<{ teamId: string; userId: string; channelId: string; text: string }>) =>
      commandForm(actor(fields.teamId ?? team.teamId, fields.userId ?? team.userId), {
        command: "/insights",
        text: fields.text ?? "last7d",
        channelId: fields.channelId ?? team.channelId,
        channelName: "general",
        responseUrl: `${sinkUrl}/r/${i}`,
        triggerId: `${i}.bad`,
      });
    const kinds: Shot[] = [
      { kind: "unsigned command", forged: true, body: cmd({ text: "disconnect" }), sign: "none" },
      { kind: "wrong-secret signature", forged: true, body: cmd({ text: "disconnect" }), sign: "bad" },
      { kind: "replayed (6 min old)", forged: true, body: cmd({}), sign: "old" },
      { kind: "signed binary garbage body", forged: false, body: text, sign: "ok" },
      {
        kind: "signed payload= not JSON",
        forged: false,
        body: `payload=${encodeURIComponent(`{${text}`)}`,
        sign: "ok",
      },
      {
        kind: "signed payload of unknown type",
        forged: false,
        body: interactionForm({ type: `x_${i}`, team: { id: team.teamId }, user: { id: team.userId } }),
        sign: "ok",
      },
      {
        kind: "signed block_actions without actions",
        forged: false,
        body: interactionForm({
          type: "block_actions",
          team: { id: team.teamId },
          user: { id: team.userId },
          actions: [{ action_id: "digest_asset" }],
          response_url: `${sinkUrl}/r/${i}`,
        }),
        sign: "ok",
        seq: i,
      },
      {
        kind: "signed command, unknown team",
        forged: false,
        body: cmd({ teamId: `T${i}BAD` }),
        sign: "ok",
        seq: i,
      },
      {
        kind: "signed command, unknown user",
        forged: false,
        body: cmd({ userId: `U${i}NOBODY` }),
        sign: "ok",
        seq: i,
      },
      {
        kind: "signed command, 4,000-char fuzz text",
        forged: false,
        body: cmd({ text: text.repeat(20).slice(0, 4000) }),
        sign: "ok",
        seq: i,
      },
      {
        kind: "signed command without user and channel",
        forged: false,
        body: new URLSearchParams({
          command: "/insights",
          team_id: team.teamId,
          text: "last7d",
          response_url: `${sinkUrl}/r/${i}`,
        }).toString(),
        sign: "ok",
        seq: i,
      },
      {
        kind: "signed JSON event of unknown shape",
        forged: false,
        contentType: "application/json",
        body: JSON.stringify({
          type: "event_callback",
          team_id: team.teamId,
          event: { type: text.slice(0, 20) },
        }),
        sign: "ok",
      },
      {
        kind: "signed JSON body that is not JSON",
        forged: false,
        contentType: "application/json",
        body: `{"type":${JSON.stringify(text)}`,
        sign: "ok",
      },
      { kind: "GET on the events URL", forged: true, method: "GET", body: "", sign: "none" },
      {
        kind: "broken HTTP on the socket",
        forged: true,
        body: "",
        sign: "none",
        raw: `POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 99999\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${text}`,
      },
    ];
    out.push(kinds[i % kinds.length] as Shot);
  }
  return out;
}

function send(url: string, s: Shot, secret: string): Promise<number> {
  const raw = s.raw;
  if (raw !== undefined) {
    const { hostname, port } = new URL(url);
    return new Promise((resolve) => {
      const sock = connect(Number(port), hostname);
      let answer = "";
      sock.setTimeout(4_000, () => sock.destroy());
      sock.on("data", (d) => {
        answer += d.toString("latin1");
      });
      sock.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
      sock.on("error", () => undefined);
      sock.end(raw);
    });
  }
  const now = Math.floor(Date.now() / 1000);
  const ts = s.sign === "old" ? now - 360 : now;
  const headers: Record<string, string> = {
    "content-type": s.contentType ?? "application/x-www-form-urlencoded",
  };
  if (s.sign !== "none") {
    headers["x-slack-request-timestamp"] = String(ts);
    headers["x-slack-signature"] = slackSignature(s.sign === "bad" ? `${secret}-nope` : secret, ts, s.body);
  }
  return new Promise((resolve) => {
    const req = request(url, { method: s.method ?? "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    // Past Slack's 3 s on purpose: Bolt answers requests no listener acks with 404 after 3,001 ms.
    req.setTimeout(4_000, () => req.destroy());
    req.on("error", () => resolve(0));
    req.end(s.method === "GET" ? undefined : s.body);
  });
}

/** Sends `n` odd requests, 64 at a time, and judges answers and any replies. */
export async function sendBadSlack(o: {
  url: string;
  secret: string;
  n: number;
  team: { teamId: string; userId: string; channelId: string };
}): Promise<BadSlackResult> {
  const sink = startSink(true);
  const sinkUrl = await sink.listen();
  const list = shots(o.n, sinkUrl, o.team);
  const statuses: Record<string, number> = {};
  const problems: string[] = [];
  let serverErrors = 0;
  const slowAnswers: Record<string, number> = {};
  let forgedAccepted = 0;
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < list.length; i = next++) {
      const s = list[i] as Shot;
      const t = performance.now();
      const status = await send(o.url, s, o.secret);
      if (status !== 0 && performance.now() - t > 3_000) slowAnswers[s.kind] = (slowAnswers[s.kind] ?? 0) + 1;
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
      const bad = status === 0 || status >= 500;
      if (bad) serverErrors++;
      const refused =
        s.forged && s.kind !== "broken HTTP on the socket" && s.method !== "GET" ? status === 401 : true;
      if (!refused) forgedAccepted++;
      if ((bad || !refused) && problems.length < 20) problems.push(`${s.kind} → HTTP ${status}`);
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  await new Promise((r) => setTimeout(r, 1_500));
  let unhelpful = 0;
  for (const [seq, entry] of sink.first) {
    const problem = judgeReply(entry.body);
    if (!problem) continue;
    unhelpful++;
    if (problems.length < 20) problems.push(`${list[seq]?.kind ?? seq} → reply: ${problem}`);
  }
  const replies = sink.first.size;
  await sink.close();
  return {
    sent: list.length,
    kinds: 15,
    statuses,
    serverErrors,
    slowAnswers,
    forgedAccepted,
    replies,
    unhelpful,
    problems,
  };
}
