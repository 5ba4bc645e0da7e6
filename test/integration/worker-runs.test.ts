import { afterEach, describe, expect, it } from "vitest";
import { DEMO_API_KEY, SECOND_API_KEY } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme, workspaceLabel } from "../../src/store/keys.ts";
import { newSubscriptionId } from "../../src/subscriptions/ids.ts";
import { periodOf, periodTime } from "../../src/subscriptions/period.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { backends } from "../setup/backends.ts";
import { type Harness, OWNER, REF, startHarness, until } from "./worker-harness.ts";

/**
 * What runs leave for the next one, with a real worker on real Redis: alert episodes (posted once
 * when they start, once when they clear, across restarts and two workers), skipped runs, and the
 * update and thread styles. Each check is the job a slot's fan-out makes, for a chosen hour.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
/** Hour `i` of a run of checks that ends a day before now (the emulator's data is complete there). */
const hourly = (i: number, count: number) =>
  periodOf(Math.floor(Date.now() / HOUR) * HOUR - (count + 24 - i) * HOUR);

async function insert(harness: Harness, fields: Partial<Subscription>): Promise<Subscription> {
  const sub: Subscription = {
    id: newSubscriptionId(),
    ref: REF,
    ownerId: OWNER,
    channelId: DEMO.security,
    schedule: { kind: "hourly" },
    time: "00:00",
    tz: "UTC",
    range: "last7d",
    assetIds: [],
    scannerIds: [],
    filterLabels: [],
    status: "active",
    createdAt: new Date().toISOString(),
    ...fields,
  };
  await harness.producer().store.insert(sub);
  return sub;
}

/** Enqueues the check of `period` (`copies` times, as duplicated fan-outs would) and waits for its verdict. */
async function check(harness: Harness, sub: Subscription, period: string, copies = 1) {
  const { queue, store } = harness.producer();
  const data = { sub: `${workspaceLabel(REF)}.${sub.id}`, period, ch: sub.channelId };
  for (let c = 0; c < copies; c++) await queue.add("digest", data, { jobId: `${sub.id}-${period}-${c}` });
  return until(
    async () => {
      const fresh = await store.get(REF, sub.id);
      return fresh?.lastDelivery?.period === period ? fresh : undefined;
    },
    20_000,
    `the verdict of ${period}`,
  );
}

/** Connects another key, as the connect modal does: stored, and the workspace's cached replies dropped. */
async function connectKey(harness: Harness, apiKey: string) {
  const keys = createKeyScheme({ prefix: harness.prefix });
  await createApiKeyStore({
    redis: harness.redis,
    keyring: harness.config.keyring ?? [],
    prefix: harness.prefix,
  }).save(REF, apiKey, { savedBy: OWNER, savedAt: new Date().toISOString() });
  const cache = createInsightsCache({
    redis: harness.redis,
    keys,
    client: { insights: () => Promise.reject(new Error("not used")) },
    logger: silentLogger(),
  });
  await cache.invalidate(REF);
}

const posts = (harness: Harness, channel: string) =>
  harness.slack.calls((c) => c.method === "chat.postMessage" && c.ok && c.args.channel === channel);
const updates = (harness: Harness) => harness.slack.calls((c) => c.method === "chat.update" && c.ok);

describe.each(backends())("alerts ($name)", ({ url }) => {
  it("fire once and clear once across 100 hourly checks, a worker restart and a second worker", {
    timeout: 240_000,
  }, async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    // Every check takes a channel post point before it knows whether it will post.
    const fast = { pacing: { channelPosts: { points: 1_000, durationSec: 1 } } };
    let worker = await harness.worker(fast);
    // The second account's last 7 days hold about 250 violations, the demo account's about 1,000.
    await connectKey(harness, SECOND_API_KEY);
    const sub = await insert(harness, { mode: "alert", condition: "when violations > 500" });
    const skipped: string[] = [];
    const n = 100;
    for (let i = 0; i < n; i++) {
      if (i === 30) await connectKey(harness, DEMO_API_KEY);
      if (i === 70) await connectKey(harness, SECOND_API_KEY);
      if (i === 50) {
        // A restart while the alert is firing: what was told lives in Redis, not in the worker.
        await worker.close();
        worker = await harness.worker(fast);
      }
      // From the restart on, two workers, and every check queued twice.
      if (i === 51) await harness.worker(fast);
      const after = await check(harness, sub, hourly(i, n), i > 50 ? 2 : 1);
      const last = after.lastDelivery;
      expect(after.runs?.alert?.state).toBe(i >= 30 && i < 70 ? "firing" : "clear");
      expect(last?.outcome).toBe(i === 30 || i === 70 ? "delivered" : "skipped");
      if (last?.outcome === "skipped") skipped.push(last.reason ?? "");
    }
    // A late check of an hour before the newest one changes nothing.
    const late = periodOf((periodTime(hourly(40, n))?.getTime() ?? 0) + 60_000);
    const { queue, store } = harness.producer();
    await queue.add("digest", { sub: `${workspaceLabel(REF)}.${sub.id}`, period: late, ch: sub.channelId });
    await until(
      async () => (await harness.claims())[`${late}/${sub.id}`]?.startsWith("s|superseded"),
      20_000,
      "the late check",
    );
    expect((await store.get(REF, sub.id))?.runs?.alert?.state).toBe("clear");

    const told = posts(harness, DEMO.security);
    expect(told).toHaveLength(2);
    const [fire, clear] = told.map((c) => String(c.args.text));
    // The notification text is mrkdwn: Slack wants `>` escaped there.
    expect(fire).toMatch(/^Alert: violations [\d,]+ &gt; 500 \(when violations &gt; 500\)$/);
    expect(clear).toMatch(/^Cleared: violations [\d,]+ not &gt; 500 \(when violations &gt; 500\)$/);
    // Every other check is on the record as skipped, with the value and the threshold.
    expect(skipped).toHaveLength(n - 2);
    expect(skipped.filter((r) => /^still firing: violations [\d,]+ > 500$/.test(r))).toHaveLength(39);
    expect(skipped.filter((r) => /^violations [\d,]+ not > 500$/.test(r))).toHaveLength(59);
  });
});
