import { beforeAll, describe, expect, it } from "vitest";
import { loadManifest, type RecordedCall, slackEvents } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import type { ChartStyle } from "../../src/insights/types.ts";
import { BOT_SCOPES } from "../../src/install/bolt-options.ts";
import { createDeliveryClaims } from "../../src/jobs/claims.ts";
import { createKeyScheme, workspaceLabel } from "../../src/store/keys.ts";
import { quietTime } from "../fixtures/subscription.ts";
import { connect, useFileStack } from "./helpers.ts";

/**
 * Every bot scope manifest.yaml requests, with the feature that needs it and the Web API call that
 * proves it: the stand-in enforces each method's scopes (its own table, from Slack's reference), so
 * taking a scope away must break its feature with `missing_scope`, and with all of them nothing may.
 * An unused scope fails the "without it" test; a needed scope the manifest lacks fails the first two.
 */

const prefix = `e2e-scopes-${process.pid}`;
/** Scopes that decide whether Slack delivers anything at all: without them the app hears nothing. */
const DELIVERY = new Set(["commands", "links:read", "im:history", "app_mentions:read"]);
const REF = { teamId: DEMO.teamId };
let serial = 0;

/** A channel of its own for each run, so runs never see each other's subscriptions or messages. */
function freshChannel(isPrivate = false): string {
  serial += 1;
  const id = `C0SCOPE${String(serial).padStart(3, "0")}`;
  stack.slack.addChannel(DEMO.teamId, { id, name: `scopes-${serial}`, isPrivate });
  return id;
}

async function subscription(channelId: string, chart?: ChartStyle): Promise<string> {
  const { subscription } = await stack.web.deps.subscriptions.create(
    REF,
    // At a time that does not come while the test runs: the stack's worker runs the real schedulers.
    {
      channelId,
      schedule: { kind: "daily" },
      time: quietTime({ kind: "daily" }),
      tz: "UTC",
      ...(chart ? { chart } : {}),
    },
    DEMO.admin,
  );
  return subscription.id;
}

async function takeover(isPrivate: boolean): Promise<Proves> {
  const channel = freshChannel(isPrivate);
  const id = await subscription(channel);
  const period = "20261102T080000Z";
  // What a worker that died right after posting leaves behind: a claim noted "posting" whose lease ran out.
  const claims = createDeliveryClaims({ redis: stack.redis, keys: createKeyScheme({ prefix }), leaseMs: 50 });
  const dead = await claims.claim(REF, id, period);
  if (dead.state !== "acquired") throw new Error("the claim was not free");
  await claims.confirm(REF, id, period, dead.token);
  await new Promise((r) => setTimeout(r, 100));
  await stack.worker?.queue.add("catchup", { sub: `${workspaceLabel(REF)}.${id}`, period, ch: channel });
  return (c) => c.method === "conversations.history" && c.args.channel === channel;
}

/** A test send of a subscription that posts its chart as an image (the path the file scopes serve). */
async function sendNow(): Promise<{ channel: string; id: string }> {
  const channel = freshChannel();
  const id = await subscription(channel, "png");
  await stack.web.deps.subscriptions.sendNow(REF, id);
  return { channel, id };
}

/** A dashboard link nobody posted before (unfurls are cached per link). */
async function postDashboardLink() {
  serial += 1;
  const text = `numbers: <${stack.emulator.appUrl}/dashboard?range=last${serial + 1}d>`;
  return stack.slack.postLinks({ teamId: DEMO.teamId, userId: DEMO.member, channelId: DEMO.general, text });
}

async function command(userId: string, channelId: string, text: string) {
  return stack.slack.sendCommand({ teamId: DEMO.teamId, userId, channelId, text });
}

/** Which recorded call shows the feature using its scope (only this run's, never an earlier one's). */
type Proves = (c: RecordedCall) => boolean;

interface Use {
  scope: string;
  feature: string;
  /**
   * Starts the feature; for scopes that decide whether Slack delivers anything at all (`commands`,
   * `links:read`), Slack's refusal to deliver, if any.
   */
  run(): Promise<Proves | { refused: string | undefined }>;
}

const USES: Use[] = [
  {
    scope: "commands",
    feature: "the /insights slash command",
    async run() {
      const sent = await command(DEMO.admin, DEMO.general, "help");
      if (sent.status === 200) await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0]);
      return { refused: sent.error };
    },
  },
  {
    scope: "chat:write",
    feature: "a scheduled digest posted in its channel",
    async run() {
      const { channel } = await sendNow();
      return (c) => c.method === "chat.postMessage" && c.args.channel === channel;
    },
  },
  {
    scope: "im:write",
    feature: "the DM to a subscription's owner when its channel is archived",
    async run() {
      const channel = freshChannel();
      await subscription(channel);
      stack.slack.setChannel(channel, { archived: true });
      await stack.slack.sendEvent({
        teamId: DEMO.teamId,
        event: slackEvents.channelArchive(channel, DEMO.owner),
      });
      return (c) =>
        c.method === "chat.postMessage" &&
        c.args.channel === DEMO.admin &&
        String(c.args.text).includes(channel);
    },
  },
  {
    scope: "users:read",
    feature: "the caller's timezone and role for a digest command",
    async run() {
      serial += 1;
      const user = `U0SCOPEU${String(serial).padStart(2, "0")}`;
      stack.slack.addUser(DEMO.teamId, { id: user, tz: "Europe/Paris" });
      await command(user, DEMO.general, "last7d");
      return (c) => c.method === "users.info" && c.args.user === user;
    },
  },
  {
    scope: "channels:read",
    feature: "subscribing a public channel (the app checks it can post there)",
    async run() {
      const channel = freshChannel();
      await command(DEMO.admin, channel, "subscribe daily");
      return (c) => c.method === "conversations.info" && c.args.channel === channel;
    },
  },
  {
    scope: "groups:read",
    feature: "subscribing a private channel",
    async run() {
      const channel = freshChannel(true);
      await command(DEMO.admin, channel, "subscribe daily");
      return (c) => c.method === "conversations.info" && c.args.channel === channel;
    },
  },
  {
    scope: "files:write",
    feature:
      "uploading a digest's chart as an image (png subscriptions, and the fallback when Slack refuses a chart block)",
    async run() {
      const { id } = await sendNow();
      return (c) => c.method === "files.getUploadURLExternal" && c.args.filename === `insights-${id}.png`;
    },
  },
  {
    scope: "files:read",
    feature: "waiting until Slack has processed that image before attaching it",
    async run() {
      const { id } = await sendNow();
      const chartOf = (fileId: unknown) => stack.slack.files().find((f) => f.id === fileId)?.filename;
      return (c) => c.method === "files.info" && chartOf(c.args.file) === `insights-${id}.png`;
    },
  },
  {
    scope: "links:read",
    feature: "hearing of a dashboard link posted in a channel (link_shared)",
    async run() {
      const shared = await postDashboardLink();
      return { refused: shared.delivered ? undefined : "missing_scope: links:read" };
    },
  },
  {
    scope: "links:write",
    feature: "unfurling a dashboard link with its numbers (chat.unfurl)",
    async run() {
      const shared = await postDashboardLink();
      return (c) => c.method === "chat.unfurl" && c.args.ts === shared.ts;
    },
  },
  {
    scope: "im:history",
    feature: "hearing a question written in the app's Messages tab (message.im)",
    async run() {
      const sent = await stack.slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text: "help" });
      return { refused: sent.delivered ? undefined : sent.refused };
    },
  },
  {
    scope: "app_mentions:read",
    feature: "hearing a question where the app is mentioned in a channel (app_mention)",
    async run() {
      const sent = await stack.slack.mention({
        teamId: DEMO.teamId,
        userId: DEMO.member,
        channelId: DEMO.general,
        text: `<@${DEMO.botUserId}> help`,
      });
      return { refused: sent.delivered ? undefined : sent.refused };
    },
  },
  {
    scope: "assistant:write",
    feature: "suggested questions when someone opens the app's Messages tab",
    async run() {
      serial += 1;
      const user = `U0SCOPEP${String(serial).padStart(2, "0")}`;
      stack.slack.addUser(DEMO.teamId, { id: user, tz: "Europe/Paris" });
      const opened = await stack.slack.openMessagesTab({ teamId: DEMO.teamId, userId: user });
      return (c) =>
        c.method === "assistant.threads.setSuggestedPrompts" && c.args.channel_id === opened.channelId;
    },
  },
  {
    scope: "channels:history",
    feature: "after a worker crash, finding the digest it already posted in a public channel",
    run: () => takeover(false),
  },
  {
    scope: "groups:history",
    feature: "the same in a private channel",
    run: () => takeover(true),
  },
];

/** Runs a use and returns the calls that needed its scope, once there is one. */
async function exercise(use: Use): Promise<{ calls: RecordedCall[]; refused?: string }> {
  const proves = await use.run();
  if (typeof proves !== "function") return { calls: [], refused: proves.refused };
  const calls = await stack.slack.waitFor(
    () => {
      const found = stack.slack.calls().filter(proves);
      return found.length > 0 ? found : undefined;
    },
    { timeoutMs: 15_000 },
  );
  return { calls };
}

const stack = useFileStack(prefix, {
  worker: {
    policy: { attempts: 1, backoffMs: 100 },
    analyticsRetry: { attempts: 1 },
    claims: { leaseMs: 3_000 },
    chartWait: { firstPollMs: 50, maxPollMs: 200, timeoutMs: 5_000 },
    // This file is about scopes: history reads as a Marketplace app may (several takeovers a minute).
    pacing: { methods: { "conversations.history": { points: 100, durationSec: 60 } } },
  },
  unlimited: true,
});
beforeAll(async () => {
  stack.slack.setHistoryTier("marketplace");
  stack.slack.setFileProcessing(100);
  await connect(stack);
});

describe("bot scopes: each one manifest.yaml requests has a feature that needs it", () => {
  it("the manifest, the app's install request and this list name the same scopes", () => {
    const listed = USES.map((u) => u.scope).sort();
    expect(loadManifest().botScopes.sort()).toEqual(listed);
    expect([...BOT_SCOPES].sort()).toEqual(listed);
  });

  it("with the manifest's scopes every feature works and no call lacks a scope", async () => {
    stack.slack.setScopes(DEMO.teamId, loadManifest().botScopes);
    const from = stack.slack.calls().length;
    for (const use of USES) {
      const { calls, refused } = await exercise(use);
      expect(refused, use.feature).toBeUndefined();
      if (!DELIVERY.has(use.scope))
        expect(
          calls.some((c) => c.ok),
          use.feature,
        ).toBe(true);
    }
    expect(
      stack.slack
        .calls()
        .slice(from)
        .filter((c) => c.error === "missing_scope"),
    ).toEqual([]);
  });

  it.each(USES.map((u) => [u.scope, u.feature, u] as const))(
    "without %s, %s fails with missing_scope",
    async (scope, _feature, use) => {
      stack.slack.setScopes(
        DEMO.teamId,
        loadManifest().botScopes.filter((s) => s !== scope),
      );
      try {
        const { calls, refused } = await exercise(use);
        if (DELIVERY.has(scope)) expect(refused).toMatch(new RegExp(`^missing_scope: ${scope}`));
        else expect(calls.map((c) => [c.error, c.needed])).toContainEqual(["missing_scope", scope]);
      } finally {
        stack.slack.setScopes(DEMO.teamId, loadManifest().botScopes);
      }
    },
  );
});
