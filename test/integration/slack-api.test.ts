import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackApi, SlackCallError } from "../../src/jobs/slack-api.ts";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A peer that records each request and answers with `reply`. */
async function peer(reply: (req: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const s = { url: req.url ?? "", headers: req.headers, body };
      seen.push(s);
      reply(s, res);
    });
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return { apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`, seen };
}

const ok = (_: Seen, res: ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"ok":true,"ts":"1.2"}');
};

async function failure(p: Promise<unknown>): Promise<SlackCallError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SlackCallError);
  return err as SlackCallError;
}

describe("the worker's Slack Web API caller", () => {
  it("sends message calls as JSON and every other method as a form, the token in the header", async () => {
    const { apiUrl, seen } = await peer(ok);
    const slack = createSlackApi({ apiUrl });
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "a & b = 100%" } }];
    const reply = await slack.call("xoxb-1", "chat.postMessage", {
      channel: "C1",
      text: "t",
      blocks,
      x: undefined,
    });
    expect(reply).toEqual({ ok: true, ts: "1.2" });
    await slack.call("xoxb-1", "files.getUploadURLExternal", { filename: "a.png", length: 10 });
    const [post, reserve] = seen;
    expect(post?.url).toBe("/api/chat.postMessage");
    expect(post?.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(post?.headers.authorization).toBe("Bearer xoxb-1");
    expect(JSON.parse(post?.body ?? "")).toEqual({ channel: "C1", text: "t", blocks });
    expect(reserve?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(reserve?.body))).toEqual({
      filename: "a.png",
      length: "10",
    });
    expect(reserve?.body).not.toContain("xoxb-1");
  });

  it("names Slack's error, a 429's Retry-After, a reply that is not JSON, and an unreachable peer", async () => {
    const { apiUrl } = await peer((s, res) => {
      if (s.url.endsWith("limited")) {
        res.writeHead(429, { "retry-after": "3" });
        res.end();
      } else if (s.url.endsWith("garbled")) {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html>");
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"ok":false,"error":"invalid_blocks","errors":["bad [json-pointer:/blocks/0]"]}');
      }
    });
    const slack = createSlackApi({ apiUrl });
    const limited = await failure(slack.call("t", "chat.limited", {}));
    expect(limited).toMatchObject({
      code: "slack_http",
      slackError: "ratelimited",
      status: 429,
      retryAfterMs: 3_000,
    });
    const garbled = await failure(slack.call("t", "chat.garbled", {}));
    expect(garbled).toMatchObject({ code: "slack_http", slackError: "bad_response" });
    const refused = await failure(slack.call("t", "chat.postMessage", {}));
    expect(refused).toMatchObject({ code: "slack_error", slackError: "invalid_blocks" });
    expect(refused.messages).toEqual(["bad [json-pointer:/blocks/0]"]);
    const closed = createSlackApi({ apiUrl: "http://127.0.0.1:9/api/" });
    expect(await failure(closed.call("t", "chat.postMessage", {}))).toMatchObject({
      code: "slack_network",
      slackError: "network",
    });
  });

  it("gives up on a call with no answer after its timeout", async () => {
    const { apiUrl } = await peer(() => {
      // never answers
    });
    const slack = createSlackApi({ apiUrl, timeoutMs: 200 });
    const started = Date.now();
    const err = await failure(slack.call("t", "chat.postMessage", {}));
    expect(err).toMatchObject({ code: "slack_network" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
