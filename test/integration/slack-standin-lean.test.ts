import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, defaultWorkspace, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import { quiet } from "./standin-fixtures.ts";

const { WebClient } = webApi;

/** Two stand-ins, one keeping the full record and one the lean record a 100,000-post bench uses. */
let full: SlackStandIn;
let lean: SlackStandIn;

beforeAll(async () => {
  const o = { signingSecret: "lean-test-secret", appUrl: "http://127.0.0.1:9/slack/events" };
  full = await startSlackStandIn({ ...o, workspaces: [defaultWorkspace()] });
  lean = await startSlackStandIn({ ...o, workspaces: [defaultWorkspace()], record: "lean" });
});

afterAll(async () => {
  await full.close();
  await lean.close();
});

const client = (s: SlackStandIn) =>
  new WebClient(DEMO.botToken, { slackApiUrl: s.apiUrl, retryConfig: { retries: 0 }, logger: quiet });

const digest = {
  channel: DEMO.general,
  text: "Weekly digest: 12 findings",
  blocks: [{ type: "section", text: { type: "mrkdwn", text: "*12* findings" } }],
  metadata: { event_type: "insights_digest", event_payload: { delivery: "sub-1:2026-12-07" } },
};

describe("the stand-in's lean record", () => {
  it("keeps a call's short arguments and metadata, and a message without its blocks", async () => {
    await client(lean).chat.postMessage(digest);
    const [call] = lean.calls({ method: "chat.postMessage" });
    expect(call?.ok).toBe(true);
    expect(call?.args.channel).toBe(DEMO.general);
    expect(call?.args.text).toBe(digest.text);
    expect(call?.args.metadata).toEqual(digest.metadata);
    expect(call?.args.blocks).toBeUndefined();
    expect(call?.args.token).toBeUndefined();
    const [msg] = lean.messages(DEMO.general);
    expect(msg?.blocks).toBeUndefined();
    expect(msg?.metadata).toEqual(digest.metadata);
    expect(msg?.text).toBe(digest.text);
  });

  it("keeps everything by default", async () => {
    await client(full).chat.postMessage(digest);
    const [call] = full.calls({ method: "chat.postMessage" });
    expect(call?.args.blocks).toEqual(digest.blocks);
    expect(full.messages(DEMO.general)[0]?.blocks).toEqual(digest.blocks);
  });

  it("checks blocks the same way", async () => {
    const bad = { ...digest, blocks: [{ type: "section" }] };
    await expect(client(lean).chat.postMessage(bad)).rejects.toMatchObject({
      data: { error: "invalid_blocks" },
    });
    await expect(client(full).chat.postMessage(bad)).rejects.toMatchObject({
      data: { error: "invalid_blocks" },
    });
    expect(lean.calls({ error: "invalid_blocks" })).toHaveLength(1);
  });
});
