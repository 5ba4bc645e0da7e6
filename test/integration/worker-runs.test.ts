import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO_API_KEY, SECOND_API_KEY } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { workspaceLabel } from "../../src/store/keys.ts";
import { periodOf, periodTime } from "../../src/subscriptions/period.ts";
import { backends } from "../setup/backends.ts";
import {
  connectKey,
  type Harness,
  insertSubscription,
  REF,
  runCheck,
  startHarness,
  until,
} from "./worker-harness.ts";

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

const insert = insertSubscription;
const check = runCheck;

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

    // One message for the episode; its end is a reply in its thread and an edit of the message.
    const told = posts(harness, DEMO.security);
    expect(told).toHaveLength(2);
    const [fire, clear] = told;
    // The notification text is mrkdwn: Slack wants `>` escaped there.
    expect(String(fire?.args.text)).toMatch(
      /^Alert: violations [\d,]+ &gt; 500 \(when violations &gt; 500\)$/,
    );
    const top = harness.slack.messages(DEMO.security).filter((m) => m.threadTs === undefined);
    expect(top).toHaveLength(1);
    const ts = String(top[0]?.ts);
    expect(clear?.args.thread_ts).toBe(ts);
    expect(String(clear?.args.text)).toMatch(/Cleared .*: violations [\d,]+ not &gt; 500$/);
    const edits = updates(harness);
    expect(edits.map((c) => c.args.ts)).toEqual([ts]);
    expect(String(edits[0]?.args.text)).toMatch(/^Cleared · Alert: violations [\d,]+ &gt; 500/);
    // Every other check is on the record as skipped, with the value and the threshold.
    expect(skipped).toHaveLength(n - 2);
    expect(skipped.filter((r) => /^still firing: violations [\d,]+ > 500$/.test(r))).toHaveLength(39);
    expect(skipped.filter((r) => /^violations [\d,]+ not > 500$/.test(r))).toHaveLength(59);
  });

  it("a first fire whose post Slack refuses once (429) is told by the retry, once", async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    await harness.worker({ pacing: { channelPosts: { points: 1_000, durationSec: 1 } } });
    await connectKey(harness, DEMO_API_KEY);
    const sub = await insert(harness, { mode: "alert", condition: "when violations > 500" });
    // Nothing told yet: the check applies, notes its fire as pending, and its post is rate limited.
    harness.slack.injectHttp("chat.postMessage", 429, { retryAfter: 1 });
    const after = await check(harness, sub, hourly(0, 1));
    expect(after.lastDelivery?.outcome).toBe("delivered");
    expect(after.runs?.alert?.state).toBe("firing");
    expect(after.runs?.alert?.untold).toBeUndefined();
    const refused = harness.slack.calls((c) => c.method === "chat.postMessage" && !c.ok);
    expect(refused).toHaveLength(1);
    expect(posts(harness, DEMO.security)).toHaveLength(1);
  });
});

describe("digest runs with a condition or a style", () => {
  it("a run whose condition is not met posts nothing and records 'skipped' with the reason; a met one posts and says why", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    await harness.worker();
    const never = await insert(harness, {
      schedule: { kind: "daily" },
      condition: "when violations > 100000",
    });
    const after = await check(harness, never, hourly(0, 2));
    expect(after.lastDelivery).toMatchObject({ outcome: "skipped" });
    expect(after.lastDelivery?.reason).toMatch(/^violations [\d,]+ not > 100,000$/);
    expect(posts(harness, DEMO.security)).toHaveLength(0);
    const always = await insert(harness, { schedule: { kind: "daily" }, condition: "when violations > 10" });
    expect((await check(harness, always, hourly(1, 2))).lastDelivery?.outcome).toBe("delivered");
    const [posted] = posts(harness, DEMO.security);
    expect(JSON.stringify(posted?.args.blocks)).toMatch(/posted because violations [\d,]+ &gt; 10/);
  });

  it("update: one message a day, edited in place by the day's later runs (same ts); the next day posts anew", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    await harness.worker();
    const sub = await insert(harness, { style: "update", range: "last1d" });
    // Four runs six hours apart on one day (00:00 UTC two days back), then the next day's first.
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000;
    const runs = [0, 6, 12, 18, 24].map((hour) => periodOf(day + hour * HOUR));
    const ts: string[] = [];
    for (const period of runs) ts.push((await check(harness, sub, period)).lastDelivery?.messageTs ?? "");
    expect(new Set(ts.slice(0, 4)).size).toBe(1);
    expect(ts[4]).not.toBe(ts[0]);
    const messages = harness.slack.messages(DEMO.security);
    expect(messages.map((m) => m.ts)).toEqual([ts[0], ts[4]]);
    const edits = updates(harness);
    expect(edits.map((c) => c.args.ts)).toEqual([ts[0], ts[0], ts[0]]);
    // The edited message shows the day's latest run: its metadata names that run's delivery.
    expect(messages[0]?.editedAt).toBeDefined();
    expect(JSON.stringify(messages[0]?.metadata)).toContain(`${sub.id}/${runs[3]}`);
  });

  it("thread: the first run posts the top message; later runs reply under it and refresh it", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    await harness.worker();
    const sub = await insert(harness, { style: "thread", schedule: { kind: "daily" } });
    const ts: string[] = [];
    for (let i = 0; i < 3; i++)
      ts.push((await check(harness, sub, hourly(i * 24, 72))).lastDelivery?.messageTs ?? "");
    const messages = harness.slack.messages(DEMO.security);
    const top = messages.filter((m) => m.threadTs === undefined);
    expect(top.map((m) => m.ts)).toEqual([ts[0]]);
    expect(messages.filter((m) => m.threadTs === ts[0]).map((m) => m.ts)).toEqual([ts[1], ts[2]]);
    expect(updates(harness).map((c) => c.args.ts)).toEqual([ts[0], ts[0]]);
  });
});
