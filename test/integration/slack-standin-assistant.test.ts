import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO, loadManifest, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import { quiet } from "./standin-fixtures.ts";

/**
 * The stand-in's agent messaging side, held to Slack's documented behaviour: status lines live in a
 * thread until the app posts there or two minutes pass; suggested prompts belong to the app's DM
 * and a `thread_ts` makes Slack ignore them under agent_view; people's DMs reach the app only when
 * the manifest subscribes, the scope is granted and the tab is writable; the app's own DM posts come
 * back to it as events.
 */
const { WebClient } = webApi;
let clock = Date.UTC(2026, 10, 18, 12, 0, 0);
let slack: SlackStandIn;
let app: Server;
const received: Record<string, unknown>[] = [];

const client = () =>
  new WebClient(DEMO.botToken, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: quiet,
  });

async function failure(p: Promise<unknown>): Promise<{ data: { error: string }; code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as { data: { error: string } };
  }
  throw new Error("expected the call to fail");
}

beforeAll(async () => {
  app = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (body.startsWith("{")) received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
  const { port } = app.address() as AddressInfo;
  slack = await startSlackStandIn({
    signingSecret: "assistant-secret-123",
    appUrl: `http://127.0.0.1:${port}/slack/events`,
    now: () => clock,
    rateLimit: { enabled: false },
  });
});
afterAll(async () => {
  await slack?.close();
  await new Promise((r) => app?.close(r));
});
beforeEach(() => {
  slack.reset();
  received.length = 0;
});

const events = (type: string) =>
  received.map((b) => b.event as Record<string, unknown>).filter((e) => e.type === type);

describe("people writing to the app", () => {
  it("a DM reaches the app as message.im (channel_type im) in the person's D… conversation", async () => {
    const sent = await slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text: "how are we doing" });
    expect(sent.delivered?.status).toBe(200);
    expect(sent.channelId).toBe("D0MEMBER1");
    expect(events("message")).toEqual([
      expect.objectContaining({
        channel: "D0MEMBER1",
        channel_type: "im",
        user: DEMO.member,
        text: "how are we doing",
      }),
    ]);
  });

  it("without im:history, or with a read-only Messages tab, the app hears nothing", async () => {
    slack.setScopes(
      DEMO.teamId,
      loadManifest().botScopes.filter((s) => s !== "im:history"),
    );
    expect((await slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text: "hi" })).refused).toBe(
      "missing_scope: im:history",
    );
    const readOnly = await startSlackStandIn({
      signingSecret: "x-secret-1234567890",
      appUrl: "http://127.0.0.1:9/",
      manifest: { ...loadManifest(), messagesTab: "read_only" },
    });
    try {
      expect((await readOnly.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text: "hi" })).refused).toBe(
        "messages_tab_read_only",
      );
    } finally {
      await readOnly.close();
    }
    expect(events("message")).toEqual([]);
  });

  it("a mention reaches the app only with the app's own mention, in a channel it is in", async () => {
    const mention = (channelId: string, text: string) =>
      slack.mention({ teamId: DEMO.teamId, userId: DEMO.member, channelId, text });
    expect((await mention(DEMO.general, "how are we doing")).refused).toBe("no_mention");
    expect((await mention(DEMO.noBot, `<@${DEMO.botUserId}> hi`)).refused).toBe("not_in_channel");
    const ok = await mention(DEMO.general, `<@${DEMO.botUserId}> how are we doing`);
    expect(ok.delivered?.status).toBe(200);
    expect(events("app_mention")).toEqual([expect.objectContaining({ channel: DEMO.general, ts: ok.ts })]);
  });

  it("the app's own post in a DM comes back to it as a message.im event with its bot_id", async () => {
    await client().chat.postMessage({ channel: DEMO.member, text: "an answer" });
    await slack.waitFor(() => slack.echoes()[0]?.status === 200);
    expect(events("message")).toEqual([
      expect.objectContaining({
        channel_type: "im",
        user: DEMO.botUserId,
        bot_id: expect.any(String),
        text: "an answer",
      }),
    ]);
  });
});

describe("assistant.threads.setStatus", () => {
  it("shows in the thread until the app posts there; two minutes at most", async () => {
    const dm = await slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text: "q" });
    const set = () =>
      client().assistant.threads.setStatus({
        channel_id: dm.channelId,
        thread_ts: dm.ts,
        status: "is thinking…",
      });
    await set();
    expect(slack.threadStatus(dm.channelId, dm.ts)).toBe("is thinking…");
    await client().chat.postMessage({ channel: dm.channelId, thread_ts: dm.ts, text: "answer" });
    expect(slack.threadStatus(dm.channelId, dm.ts)).toBeUndefined();
    await set();
    clock += 120_001;
    expect(slack.threadStatus(dm.channelId, dm.ts)).toBeUndefined();
  });

  it("refuses an unknown conversation, a thread that is not one, and more than ten loading messages", async () => {
    const dm = await slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text: "q" });
    const call = (args: Record<string, unknown>) =>
      failure(
        client().apiCall("assistant.threads.setStatus", {
          channel_id: dm.channelId,
          thread_ts: dm.ts,
          status: "s",
          ...args,
        }),
      );
    expect((await call({ channel_id: "D0NOBODY1" })).data.error).toBe("channel_not_found");
    expect((await call({ channel_id: DEMO.member })).data.error).toBe("channel_not_found");
    expect((await call({ thread_ts: "1.000000" })).data.error).toBe("invalid_thread_ts");
    expect((await call({ loading_messages: JSON.stringify(Array(11).fill("…")) })).data.error).toBe(
      "invalid_arguments",
    );
  });

  it("takes chat:write or assistant:write", async () => {
    const dm = await slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text: "q" });
    const set = () =>
      client().assistant.threads.setStatus({ channel_id: dm.channelId, thread_ts: dm.ts, status: "s" });
    slack.setScopes(DEMO.teamId, ["assistant:write"]);
    await expect(set()).resolves.toMatchObject({ ok: true });
    slack.setScopes(DEMO.teamId, ["im:history"]);
    expect((await failure(set())).data).toMatchObject({ error: "missing_scope", needed: "chat:write" });
  });
});

describe("assistant.threads.setSuggestedPrompts", () => {
  const prompts = [{ title: "A", message: "a question" }];

  it("sets up to four prompts on the app's DM; five, an empty one or a channel are refused", async () => {
    const open = await slack.openMessagesTab({ teamId: DEMO.teamId, userId: DEMO.member });
    await client().assistant.threads.setSuggestedPrompts({
      channel_id: open.channelId,
      title: "Try",
      prompts,
    });
    expect(slack.suggestedPrompts(open.channelId)).toMatchObject({ title: "Try", prompts });
    const bad = (args: Record<string, unknown>) =>
      failure(
        client().apiCall("assistant.threads.setSuggestedPrompts", {
          channel_id: open.channelId,
          prompts,
          ...args,
        }),
      );
    expect((await bad({ prompts: Array(5).fill(prompts[0]) })).data.error).toBe("invalid_arguments");
    expect((await bad({ prompts: [{ title: "", message: "x" }] })).data.error).toBe("invalid_arguments");
    expect((await bad({ channel_id: DEMO.general })).data.error).toBe("channel_not_found");
  });

  it("under agent_view a thread_ts makes Slack ignore the call: ok, and nothing set", async () => {
    const open = await slack.openMessagesTab({ teamId: DEMO.teamId, userId: DEMO.admin });
    const res = await client().assistant.threads.setSuggestedPrompts({
      channel_id: open.channelId,
      thread_ts: "1700000000.000100",
      prompts,
    });
    expect(res.ok).toBe(true);
    expect(slack.suggestedPrompts(open.channelId)).toBeUndefined();
    expect(slack.ignoredCalls()).toEqual([expect.objectContaining({ reason: "thread_ts under agent_view" })]);
  });

  it("is Tier 4: past 100 a minute per workspace, 429 with Retry-After", async () => {
    const open = await slack.openMessagesTab({ teamId: DEMO.teamId, userId: DEMO.member });
    for (let i = 0; i < 100; i++)
      await client().assistant.threads.setSuggestedPrompts({ channel_id: open.channelId, prompts });
    const limited = await failure(
      client().assistant.threads.setSuggestedPrompts({ channel_id: open.channelId, prompts }),
    );
    expect((limited as { code?: string }).code).toBe("slack_webapi_rate_limited_error");
    clock += 60_000;
    await expect(
      client().assistant.threads.setSuggestedPrompts({ channel_id: open.channelId, prompts }),
    ).resolves.toMatchObject({
      ok: true,
    });
  });
});
