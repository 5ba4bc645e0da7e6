import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { DEMO, DEMO_APP_TOKEN, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import { STEP } from "../../src/ids.ts";
import { inGeneral } from "./standin-fixtures.ts";

/**
 * The stand-in's Socket Mode, custom-step and unfurl sides are at least as strict as Slack: each
 * refusal below is one Slack documents, by its error name.
 */
let slack: SlackStandIn;

beforeAll(async () => {
  slack = await startSlackStandIn({
    signingSecret: "secret-0123456789",
    appUrl: "http://127.0.0.1:9/",
    transport: "socket",
  });
});
afterAll(async () => slack?.close());

async function api(method: string, token: string | undefined, body: Record<string, unknown> = {}) {
  const res = await fetch(`${slack.apiUrl}${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown> & { ok: boolean; error?: string };
}

/** Opens a Socket Mode connection as an app would and collects what Slack sends on it. */
async function openSocket(): Promise<{ ws: WebSocket; messages: Record<string, unknown>[] }> {
  const opened = await api("apps.connections.open", DEMO_APP_TOKEN);
  expect(opened.ok).toBe(true);
  const ws = new WebSocket(String(opened.url));
  const messages: Record<string, unknown>[] = [];
  ws.on("message", (d) => messages.push(JSON.parse(String(d)) as Record<string, unknown>));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  await slack.waitFor(() => messages.find((m) => m.type === "hello"));
  // The connection takes envelopes once our pong to the ping after hello is back.
  await slack.waitForSocket(5_000);
  return { ws, messages };
}

describe("Socket Mode side", () => {
  it("apps.connections.open wants an app-level token with connections:write", async () => {
    expect(await api("apps.connections.open", undefined)).toMatchObject({ ok: false, error: "not_authed" });
    expect(await api("apps.connections.open", DEMO.botToken)).toMatchObject({
      error: "not_allowed_token_type",
    });
    expect(await api("apps.connections.open", "xapp-1-unknown")).toMatchObject({ error: "invalid_auth" });
    slack.setAppTokenRevoked(DEMO_APP_TOKEN, true);
    expect(await api("apps.connections.open", DEMO_APP_TOKEN)).toMatchObject({ error: "invalid_auth" });
    slack.setAppTokenRevoked(DEMO_APP_TOKEN, false);
    const ok = await api("apps.connections.open", DEMO_APP_TOKEN);
    expect(String(ok.url)).toMatch(
      /^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=[0-9a-f]{32}&app_id=A0INSIGHTS$/,
    );
  });

  it("a WebSocket URL works once: the second upgrade is refused", async () => {
    const opened = await api("apps.connections.open", DEMO_APP_TOKEN);
    const first = new WebSocket(String(opened.url));
    await new Promise((r) => first.once("open", r));
    const second = new WebSocket(String(opened.url));
    const status = await new Promise<number>((resolve) => {
      second.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      second.once("open", () => resolve(101));
    });
    expect(status).toBe(401);
    const closed = new Promise((r) => first.once("close", r));
    first.close();
    await closed;
    await slack.waitFor(() => slack.socketConnections().every((c) => c.state === "closed"));
  });

  it("hello, an envelope per delivery, the first ack's payload as the answer, extra acks counted", async () => {
    const { ws, messages } = await openSocket();
    expect(messages[0]).toMatchObject({
      type: "hello",
      num_connections: 1,
      connection_info: { app_id: "A0INSIGHTS" },
    });
    ws.on("message", (d) => {
      const m = JSON.parse(String(d)) as { envelope_id?: string; type?: string };
      if (m.type !== "slash_commands") return;
      ws.send(JSON.stringify({ envelope_id: m.envelope_id, payload: { text: "hi" } }));
      ws.send(JSON.stringify({ envelope_id: m.envelope_id, payload: { text: "again" } }));
    });
    const sent = await slack.sendCommand({
      ...inGeneral(),
      text: "x",
    });
    expect(sent).toMatchObject({ status: 200, body: { text: "hi" } });
    const envelope = messages.find((m) => m.type === "slash_commands") as Record<string, unknown>;
    expect(envelope).toMatchObject({
      accepts_response_payload: true,
      payload: { command: "/insights", text: "x" },
    });
    await slack.waitFor(() => slack.envelopes().find((e) => e.acks === 2));
    expect(slack.envelopes().at(-1)).toMatchObject({ ackPayload: { text: "hi" }, outcome: "acked" });
    expect(slack.disconnectSocket("warning")).toBe(1);
    await slack.waitFor(() => messages.find((m) => m.type === "disconnect"));
    expect(messages.at(-1)).toMatchObject({ type: "disconnect", reason: "warning" });
    ws.terminate();
    await slack.waitFor(() => slack.socketConnections().every((c) => c.state === "closed"));
  });

  it("a connection that never answers the ping after hello gets no envelope", async () => {
    const opened = await api("apps.connections.open", DEMO_APP_TOKEN);
    const ws = new WebSocket(String(opened.url), { autoPong: false });
    const messages: string[] = [];
    ws.on("message", (d) => messages.push(String(d)));
    await slack.waitFor(() => messages.find((m) => m.includes('"hello"')));
    expect(slack.socketConnections().at(-1)?.state).toBe("connecting");
    const sent = await slack.sendCommand({
      ...inGeneral(),
      text: "x",
    });
    expect(sent).toMatchObject({ status: 0, error: "dispatch_failed" });
    expect(messages).toHaveLength(1);
    ws.terminate();
    await slack.waitFor(() => slack.socketConnections().every((c) => c.state === "closed"));
  });

  it("with no connection open, a command fails at once (dispatch_failed) and an event waits for one", async () => {
    const failed = await slack.sendCommand({
      ...inGeneral(),
      text: "x",
    });
    expect(failed).toMatchObject({ status: 0, error: "dispatch_failed" });
    const event = slack.sendEvent({
      teamId: DEMO.teamId,
      event: { type: "app_home_opened", user: DEMO.member, tab: "home" },
    });
    const { ws, messages } = await openSocket();
    const envelope = await slack.waitFor(() => messages.find((m) => m.type === "events_api"));
    expect(envelope).toMatchObject({
      retry_attempt: 1,
      retry_reason: "timeout",
      accepts_response_payload: false,
    });
    ws.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    expect((await event).status).toBe(200);
    ws.terminate();
  });
});

describe("custom steps and unfurls", () => {
  it("functions.completeSuccess checks outputs against the manifest; a run completes once", async () => {
    slack.setTransport("http");
    const sent = await slack.executeStep({
      teamId: DEMO.teamId,
      callbackId: STEP.sendDigest,
      inputs: { channel_id: DEMO.general },
    });
    const run = slack.stepExecution(sent.executionId);
    if (!run) throw new Error("no execution recorded");
    const bad = await api("functions.completeSuccess", run.token, {
      function_execution_id: run.id,
      outputs: { message_ts: "not-a-ts", findings: 1.5, extra: true },
    });
    expect(bad).toMatchObject({ ok: false, error: "parameter_validation_failed" });
    expect(JSON.stringify(bad)).toContain("outputs.message_link is required");
    expect(JSON.stringify(bad)).toContain("outputs.findings must be of type integer");
    expect(JSON.stringify(bad)).toContain("outputs.extra is not declared in the manifest");
    expect(slack.stepExecution(run.id)?.status).toBe("running");
    expect(
      await api("functions.completeError", run.token, { function_execution_id: run.id, error: "no" }),
    ).toMatchObject({ ok: true });
    expect(
      await api("functions.completeError", DEMO.botToken, { function_execution_id: run.id, error: "no" }),
    ).toMatchObject({
      error: "execution_not_in_running_state",
    });
    expect(
      await api("functions.completeSuccess", DEMO.botToken, { function_execution_id: "FxNOPE", outputs: {} }),
    ).toMatchObject({
      error: "function_execution_not_found",
    });
    await expect(
      slack.executeStep({ teamId: DEMO.teamId, callbackId: STEP.sendDigest, inputs: {} }),
    ).rejects.toThrow(/inputs.channel_id is required/);
  });

  it("chat.unfurl names the message and only unfurls the links Slack sent", async () => {
    slack.setTransport("http");
    const link = "https://app.example.com/dashboard";
    const shared = await slack.postLinks({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      text: `<${link}>`,
    });
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "numbers" } }];
    const at = { channel: DEMO.general, ts: shared.ts };
    expect(await api("chat.unfurl", DEMO.botToken, { ts: shared.ts, unfurls: {} })).toMatchObject({
      error: "missing_channel",
    });
    expect(await api("chat.unfurl", DEMO.botToken, at)).toMatchObject({ error: "missing_unfurls" });
    expect(await api("chat.unfurl", DEMO.botToken, { ...at, unfurls: "[1]" })).toMatchObject({
      error: "invalid_unfurls_format",
    });
    expect(
      await api("chat.unfurl", DEMO.botToken, {
        ...at,
        unfurls: { "https://app.example.com/other": { blocks } },
      }),
    ).toMatchObject({
      error: "cannot_unfurl_url",
    });
    expect(
      await api("chat.unfurl", DEMO.botToken, { channel: DEMO.general, ts: "1.000001", unfurls: {} }),
    ).toMatchObject({
      error: "cannot_find_message",
    });
    expect(
      await api("chat.unfurl", DEMO.botToken, { ...at, unfurls: { [link]: { blocks: [{ type: "nope" }] } } }),
    ).toMatchObject({
      error: "invalid_blocks",
    });
    // Checked with the stand-in's own Block Kit tables: a button is not a context element, and an image
    // may only show a file Slack has processed.
    const refused = await api("chat.unfurl", DEMO.botToken, {
      ...at,
      unfurls: {
        [link]: {
          blocks: [
            {
              type: "context",
              elements: [{ type: "button", text: { type: "plain_text", text: "x" }, action_id: "a" }],
            },
            { type: "image", slack_file: { id: "F0NOTAFILE" }, alt_text: "chart" },
          ],
        },
      },
    });
    expect(refused.error).toBe("invalid_blocks");
    const errors = refused.errors as string[];
    expect(errors.some((e) => e.includes("[json-pointer:/blocks/0/elements/0"))).toBe(true);
    expect(errors.some((e) => e.includes("[json-pointer:/blocks/1"))).toBe(true);
    expect(
      await api("chat.unfurl", DEMO.botToken, {
        ...at,
        unfurls: { [link]: { blocks: { type: "section" } } },
      }),
    ).toMatchObject({ error: "invalid_blocks", errors: ["must provide an array [json-pointer:/blocks]"] });
    expect(await api("chat.unfurl", DEMO.botToken, { ...at, unfurls: { [link]: { blocks } } })).toMatchObject(
      { ok: true },
    );
    const byId = await api("chat.unfurl", DEMO.botToken, {
      unfurl_id: shared.unfurlId,
      source: "conversations_history",
      unfurls: { [link]: { blocks } },
    });
    expect(byId).toMatchObject({ ok: true });
    expect(slack.linkShare(shared.unfurlId as string)?.unfurls[link]).toEqual({ blocks });
  });
});
