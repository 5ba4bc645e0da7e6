import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO, loadManifest } from "../../sandbox/slack/index.ts";
import type { DeliveryResult } from "../../src/jobs/deliver.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { createWorkspaceSettings } from "../../src/store/workspace-settings.ts";
import type { SubscriptionInput } from "../../src/subscriptions/types.ts";
import { type Harness, OWNER, REF, startHarness, until } from "./worker-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** The image path: a subscription set to png (native blocks are the default, tested below). */
const daily = {
  channelId: DEMO.general,
  schedule: { kind: "daily" as const },
  tz: "UTC",
  chart: "png" as const,
};
type Block = { type: string; slack_file?: { id: string }; alt_text?: string };
const scopesWithout = (scope: string) => loadManifest().botScopes.filter((s) => s !== scope);

type Running = Awaited<ReturnType<Harness["worker"]>>;

/** One test send, and the job's result as the worker reports it (finished jobs are not kept). */
async function deliverOnce(w: Running, input: SubscriptionInput = daily): Promise<DeliveryResult> {
  const results: DeliveryResult[] = [];
  w.worker.on("completed", (_job, result) => results.push(result));
  const { subscriptions } = h.producer();
  const { subscription: sub } = await subscriptions.create(REF, input, OWNER);
  await subscriptions.sendNow(REF, sub.id);
  await until(() => h.slack.messages(DEMO.general).length === 1, 15_000, "the digest");
  return until(() => results[0], 5_000, "the finished job");
}

describe("the digest's chart and Slack's file processing", () => {
  it("is attached only once files.info reports the file processed, with its alt_txt", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    h.slack.setFileProcessing(700);
    const w = await h.worker({ chartWait: { firstPollMs: 50, maxPollMs: 200, timeoutMs: 10_000 } });
    const result = await deliverOnce(w);
    expect(result).toMatchObject({ status: "delivered", chart: "attached" });
    const blocks = h.slack.messages(DEMO.general)[0]?.blocks as Block[];
    const image = blocks.find((b) => b.type === "image");
    const file = h.slack.files().find((f) => f.id === image?.slack_file?.id);
    expect(file?.altText).toMatch(/^Daily findings, violations and fixes, /);
    expect(image?.alt_text).toBe(file?.altText);
    const calls = h.slack.calls();
    const post = calls.find((c) => c.method === "chat.postMessage" && c.ok);
    const infos = calls.filter((c) => c.method === "files.info");
    // Posted after Slack had processed the file, and only after asking: no refused post, no blind wait.
    expect(post?.at).toBeGreaterThanOrEqual(file?.readyAt ?? Number.POSITIVE_INFINITY);
    expect(infos.length).toBeGreaterThan(0);
    expect(infos.every((c) => c.at <= (post?.at ?? 0))).toBe(true);
    expect(calls.filter((c) => c.method === "chat.postMessage" && !c.ok)).toEqual([]);
  });

  it("never processed in time: the digest goes out without it, the delivery says not_ready, /metrics counts it", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    h.slack.setFileProcessing(60 * 60_000);
    const w = await h.worker({
      healthPort: 0,
      chartWait: { firstPollMs: 50, maxPollMs: 100, timeoutMs: 400 },
    });
    const result = await deliverOnce(w);
    expect(result).toMatchObject({ status: "delivered", chart: "not_ready" });
    const blocks = h.slack.messages(DEMO.general)[0]?.blocks as Block[];
    expect(blocks.some((b) => b.type === "image")).toBe(false);
    const [sub] = await h.producer().subscriptions.list(REF);
    expect(sub?.lastDelivery).toMatchObject({ outcome: "delivered", chart: "not_ready" });
    const metrics = await until(
      async () => {
        const text = await (await fetch(`http://127.0.0.1:${w.healthPort}/metrics`)).text();
        return text.includes('insights_charts_total{outcome="not_ready"} 1') ? text : undefined;
      },
      5_000,
      "the chart outcome in /metrics",
    );
    expect(metrics).not.toContain('insights_charts_total{outcome="attached"}');
    expect(h.slack.calls((c) => c.method === "chat.postMessage" && !c.ok)).toEqual([]);
  });

  it("an install without files:read: the chart is attached after a grace, and the delivery says unchecked", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    h.slack.setScopes(DEMO.teamId, scopesWithout("files:read"));
    const w = await h.worker({ chartWait: { uncheckedGraceMs: 600 } });
    const result = await deliverOnce(w);
    expect(result).toMatchObject({ status: "delivered", chart: "unchecked" });
    const blocks = h.slack.messages(DEMO.general)[0]?.blocks as Block[];
    expect(blocks.some((b) => b.type === "image")).toBe(true);
    expect(h.slack.calls({ method: "files.info" }).map((c) => c.error)).toEqual(["missing_scope"]);
    const [sub] = await h.producer().subscriptions.list(REF);
    expect(sub?.lastDelivery).toMatchObject({ outcome: "delivered", chart: "unchecked" });
  });
});

describe("Slack's files.* budgets on the image path", () => {
  /** Two PNG digests of one workspace sent at once, and their results. */
  async function twoAtOnce(w: Running): Promise<DeliveryResult[]> {
    const results: DeliveryResult[] = [];
    w.worker.on("completed", (_job, result) => results.push(result));
    const { subscriptions } = h.producer();
    for (const channelId of [DEMO.general, DEMO.security]) {
      const { subscription } = await subscriptions.create(REF, { ...daily, channelId }, OWNER);
      await subscriptions.sendNow(REF, subscription.id);
    }
    return until(() => (results.length === 2 ? results : undefined), 20_000, "both digests");
  }
  const uploads = () => h.slack.calls({ method: "files.getUploadURLExternal" });

  it("an upload waits for the workspace's budget when the chart's wait allows it", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const w = await h.worker({
      chartWait: { firstPollMs: 50, maxPollMs: 100, timeoutMs: 5_000 },
      pacing: { methods: { "files.getUploadURLExternal": { points: 1, durationSec: 2 } } },
    });
    const results = await twoAtOnce(w);
    expect(results.map((r) => (r.status === "delivered" ? r.chart : r.status))).toEqual([
      "attached",
      "attached",
    ]);
    const [first, second] = uploads();
    // The second upload went out when the first's two-second window was over, not before.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1_800);
  });

  it("a budget spent for longer than the chart's wait: the digest goes out as text, its delivery says paced", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const w = await h.worker({
      chartWait: { firstPollMs: 50, maxPollMs: 100, timeoutMs: 2_000 },
      pacing: { methods: { "files.getUploadURLExternal": { points: 1, durationSec: 60 } } },
    });
    const results = await twoAtOnce(w);
    expect(results.map((r) => (r.status === "delivered" ? r.chart : r.status)).sort()).toEqual([
      "attached",
      "paced",
    ]);
    expect(uploads()).toHaveLength(1);
    const subs = await h.producer().subscriptions.list(REF);
    expect(subs.map((s) => s.lastDelivery?.chart).sort()).toEqual(["paced", undefined]);
  });
});

describe("charts Slack draws, by default", () => {
  const native = { channelId: DEMO.general, schedule: { kind: "daily" as const }, tz: "UTC" };
  const blocksOf = () => h.slack.messages(DEMO.general)[0]?.blocks as Block[];
  const filesCalls = () => h.slack.calls((c) => c.method.startsWith("files."));

  it("posts the trend as a chart block and the drivers as a table, with no files.* call at all", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const w = await h.worker();
    const result = await deliverOnce(w, native);
    expect(result).toMatchObject({ status: "delivered", chart: "native" });
    const types = blocksOf().map((b) => b.type);
    expect(types).toContain("data_visualization");
    expect(types).toContain("table");
    expect(types).not.toContain("image");
    expect(filesCalls()).toEqual([]);
    const [sub] = await h.producer().subscriptions.list(REF);
    // As planned: nothing to record about the chart.
    expect(sub?.lastDelivery?.chart).toBeUndefined();
  });

  it("a refused chart block: the delivery retries once with the PNG and records png_fallback", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    h.slack.refuseBlocks(["data_visualization"]);
    const w = await h.worker({ chartWait: { firstPollMs: 50, maxPollMs: 100, timeoutMs: 5_000 } });
    const result = await deliverOnce(w, native);
    expect(result).toMatchObject({ status: "delivered", chart: "png_fallback" });
    const posts = h.slack.calls({ method: "chat.postMessage" });
    expect(posts.map((c) => c.error)).toEqual(["invalid_blocks", undefined]);
    const types = blocksOf().map((b) => b.type);
    expect(types).toContain("image");
    expect(types).not.toContain("data_visualization");
    expect(types).not.toContain("table");
    expect(filesCalls().map((c) => c.method)).toContain("files.completeUploadExternal");
    const [sub] = await h.producer().subscriptions.list(REF);
    expect(sub?.lastDelivery).toMatchObject({ outcome: "delivered", chart: "png_fallback" });
    // The drivers that were a table are now words in the digest.
    expect(JSON.stringify(blocksOf())).toContain("by asset group:");
  });

  it("a refused table block falls back the same way", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    h.slack.refuseBlocks(["table"]);
    const w = await h.worker({ chartWait: { firstPollMs: 50, maxPollMs: 100, timeoutMs: 5_000 } });
    expect(await deliverOnce(w, native)).toMatchObject({ chart: "png_fallback" });
    expect(blocksOf().map((b) => b.type)).not.toContain("table");
  });

  it("follows the workspace's setting when the subscription has none", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const settings = createWorkspaceSettings({ redis: h.redis, keys: createKeyScheme({ prefix: h.prefix }) });
    await settings.setChart(REF, "off");
    const w = await h.worker();
    expect(await deliverOnce(w, native)).toMatchObject({ status: "delivered", chart: "off" });
    const types = blocksOf().map((b) => b.type);
    expect(types).not.toContain("data_visualization");
    expect(types).not.toContain("image");
    expect(filesCalls()).toEqual([]);
  });
});
