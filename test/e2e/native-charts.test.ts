import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { checkMessageBlocks } from "../../sandbox/slack/blockkit/index.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { ACTION, BLOCK, STEP } from "../../src/ids.ts";
import { clickOnReply, command, who } from "./helpers.ts";
import { homeText, idIn, openHome, REF, sub, subscriptionStack } from "./subscriptions-helpers.ts";

/**
 * Charts and tables Slack draws, wherever Slack takes them: on-demand digests (the ephemeral reply,
 * its redraws, Why?, Share), scheduled and personal digests, the workflow step; not the Home tab or
 * an unfurl (the stand-in refuses them there, as Slack documents them for messages only). When
 * Slack refuses one, the answer still goes out without it.
 */

const PROJECT = "C0CHARTS01";
let stack: Stack;

beforeAll(async () => {
  stack = await subscriptionStack(inject("redisUrl"), `e2e-charts-${process.pid}`);
  stack.slack.addChannel(DEMO.teamId, { id: PROJECT, name: "charts" });
});
afterAll(async () => stack?.close());

type B = { type: string; block_id?: string; chart?: { axis_config: { categories: string[] } } };
const blocksOf = (body: unknown) => ((body as { blocks?: B[] }).blocks ?? []) as B[];
const typesOf = (body: unknown) => blocksOf(body).map((b) => b.type);
const chartOf = (body: unknown) => blocksOf(body).find((b) => b.type === "data_visualization");
const DELIVERY_MS = 20_000;

describe("on-demand digests", () => {
  it("answer with the trend as a chart, weekly for 30 days, that Slack's own check accepts", async () => {
    const { body } = await command(stack, "last30d");
    const chart = chartOf(body);
    expect(chart?.block_id).toBe(BLOCK.digestChart);
    expect(chart?.chart?.axis_config.categories).toHaveLength(5);
    expect(checkMessageBlocks(blocksOf(body))).toEqual([]);
    expect(JSON.stringify(body)).toContain("30 days read as 5 weeks");
  });

  it("keep the chart through a range redraw, and Why? adds the drivers as a table", async () => {
    const replied = await command(stack, "last7d");
    await clickOnReply(stack, replied, "digest_range_last90d");
    const redrawn = await stack.slack.waitFor(() => stack.slack.responses(replied.sent.responseUrl)[1]);
    expect(chartOf(redrawn.body)?.chart?.axis_config.categories).toHaveLength(13);
    await clickOnReply(stack, replied, ACTION.explain);
    const why = await stack.slack.waitFor(() => stack.slack.responses(replied.sent.responseUrl)[2], {
      timeoutMs: 15_000,
    });
    expect(typesOf(why.body)).toEqual(expect.arrayContaining(["data_visualization", "table"]));
  });

  it("Share posts the chart in the channel", async () => {
    const replied = await command(stack, "last14d");
    await clickOnReply(stack, replied, ACTION.share, who(DEMO.member, DEMO.security));
    const posted = await stack.slack.waitFor(() =>
      stack.slack.messages(DEMO.security).find((m) => JSON.stringify(m.blocks).includes("Shared by")),
    );
    expect(chartOf(posted)?.chart?.axis_config.categories).toHaveLength(14);
  });

  it("when Slack refuses the chart block, the answer still comes, without it", async () => {
    stack.slack.refuseBlocks(["data_visualization"]);
    try {
      const { sent } = await command(stack, "last7d");
      const [refused, answered] = await stack.slack.waitFor(() => {
        const r = stack.slack.responses(sent.responseUrl);
        return r.length >= 2 ? r : undefined;
      });
      expect(refused).toMatchObject({ outcome: "rejected", error: "invalid_blocks" });
      const body = answered?.body;
      expect(answered?.outcome).toBe("ephemeral");
      expect(typesOf(body)).not.toContain("data_visualization");
      expect(String((body as { text?: string } | undefined)?.text)).toMatch(/findings/);
      expect(JSON.stringify(body)).toContain("Daily trend");
    } finally {
      stack.slack.refuseBlocks([]);
    }
  });
});

describe("scheduled and personal digests, the Home tab", () => {
  it("a channel digest and a personal one carry the chart; the Home tab does not and stays valid", async () => {
    const channel = await command(stack, "subscribe daily", DEMO.admin, PROJECT);
    const id = idIn(channel.body);
    const personal = await command(stack, "subscribe me daily 07:00", DEMO.admin, PROJECT);
    const personalId = idIn(personal.body);
    await command(stack, `send ${id}`, DEMO.admin, PROJECT);
    await command(stack, `send ${personalId}`, DEMO.admin, PROJECT);
    const posted = await stack.slack.waitFor(() => stack.slack.messages(PROJECT)[0], {
      timeoutMs: DELIVERY_MS,
    });
    expect(typesOf(posted)).toEqual(expect.arrayContaining(["data_visualization", "table"]));
    const dm = `D${DEMO.admin.slice(1)}`;
    const delivered = await stack.slack.waitFor(
      () => stack.slack.messages(dm).find((m) => typesOf(m).includes("data_visualization")),
      { timeoutMs: DELIVERY_MS },
    );
    expect(JSON.stringify(delivered.blocks)).toContain("Your personal digest");
    expect(stack.slack.calls((c) => c.method.startsWith("files."))).toEqual([]);
    await stack.slack.waitFor(async () => ((await sub(stack, id))?.lastDelivery ? true : undefined));
    const home = await openHome(stack, DEMO.admin);
    expect(homeText(home)).not.toContain("data_visualization");
    expect(stack.slack.calls({ method: "views.publish", ok: false })).toEqual([]);
  });

  it("a subscription set to png shows it on the Home tab and uploads its image", async () => {
    const png = await command(stack, "subscribe daily chart:png", DEMO.admin, PROJECT);
    const id = idIn(png.body);
    expect((await sub(stack, id))?.chart).toBe("png");
    expect(homeText(await openHome(stack, DEMO.admin))).toContain(" · chart: png · ");
    await command(stack, `send ${id}`, DEMO.admin, PROJECT);
    await stack.slack.waitFor(
      () => stack.slack.calls({ method: "files.completeUploadExternal", ok: true })[0],
      {
        timeoutMs: DELIVERY_MS,
      },
    );
    expect(REF.teamId).toBe(DEMO.teamId);
  });
});

describe("the workflow step and unfurls", () => {
  it("the step posts the digest with its chart, and as text when Slack refuses the block", async () => {
    const run = async () => {
      const sent = await stack.slack.executeStep({
        teamId: DEMO.teamId,
        callbackId: STEP.sendDigest,
        inputs: { channel_id: DEMO.general, range: "last7d" },
      });
      return stack.slack.waitFor(
        () => {
          const e = stack.slack.stepExecution(sent.executionId);
          return e && e.status !== "running" ? e : undefined;
        },
        { timeoutMs: 15_000 },
      );
    };
    const done = await run();
    expect(done.status).toBe("completed");
    const ts = (done.outputs as { message_ts: string }).message_ts;
    const message = stack.slack.messages(DEMO.general).find((m) => m.ts === ts);
    expect(typesOf(message)).toContain("data_visualization");
    stack.slack.refuseBlocks(["data_visualization"]);
    try {
      const refused = await run();
      expect(refused.status).toBe("completed");
      const again = stack.slack
        .messages(DEMO.general)
        .find((m) => m.ts === (refused.outputs as { message_ts: string }).message_ts);
      expect(typesOf(again)).not.toContain("data_visualization");
      expect(JSON.stringify(again?.blocks)).toContain("Posted by a workflow");
    } finally {
      stack.slack.refuseBlocks([]);
    }
  });

  it("an unfurl carries no chart or table block (Slack documents them for messages only)", async () => {
    const shared = await stack.slack.postLinks({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      text: `numbers: <${stack.emulator.appUrl}/dashboard?range=last30d>`,
    });
    const url = stack.slack.linkShare(shared.unfurlId as string)?.links[0]?.url as string;
    const unfurl = await stack.slack.waitFor(
      () => stack.slack.linkShare(shared.unfurlId as string)?.unfurls[url],
      {
        timeoutMs: 15_000,
      },
    );
    const types = (unfurl.blocks as B[]).map((b) => b.type);
    expect(types.length).toBeGreaterThan(0);
    expect(types).not.toContain("data_visualization");
    expect(types).not.toContain("table");
    expect(stack.slack.calls({ method: "chat.unfurl", ok: false })).toEqual([]);
  });
});

describe("the workspace's chart setting (last: each process remembers it for a few seconds)", () => {
  const hasChart = async () => typesOf((await command(stack, "last7d")).body).includes("data_visualization");
  const until = (want: boolean) =>
    stack.slack.waitFor(async () => ((await hasChart()) === want ? true : undefined), {
      timeoutMs: 25_000,
      intervalMs: 2_000,
    });

  it("off means text only, default brings the chart back; members cannot change it", async () => {
    const set = await command(stack, "settings chart:off", DEMO.admin);
    expect(String(set.body.text)).toContain("*Charts:* `off`");
    await until(false);
    await command(stack, "settings chart:default", DEMO.admin);
    await until(true);
    const member = await command(stack, "settings chart:png", DEMO.member);
    expect(JSON.stringify(member.body)).not.toContain("Saved");
    expect(await hasChart()).toBe(true);
  });
});
