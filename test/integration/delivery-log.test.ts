import { Worker } from "bullmq";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { createDeliveryLog, hourOf } from "../../src/jobs/delivery-log.ts";
import { oldestWaitingSeconds, queueCounts } from "../../src/jobs/queue-state.ts";
import { createKeyScheme, workspaceLabel } from "../../src/store/keys.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { connect } from "../setup/backends.ts";
import { type Harness, OWNER, REF, startHarness, until } from "./worker-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const daily = (channelId: string) => ({
  channelId,
  schedule: { kind: "daily" as const },
  time: "09:00",
  tz: "UTC",
});

describe("what operators see of deliveries", () => {
  it("a late post and a refused one reach /metrics and the delivery log, with no workspace id in a label", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions, scheduler } = h.producer();
    const w = await h.worker({ healthPort: 0 });
    const base = `http://127.0.0.1:${w.healthPort}`;
    const { subscription: ok } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    const { subscription: gone } = await subscriptions.create(REF, daily(DEMO.security), OWNER);
    // A run due ten minutes ago, delivered now: late by the default five minutes.
    const due = periodOf(Math.floor((Date.now() - 600_000) / 60_000) * 60_000);
    h.slack.deleteChannel(DEMO.security);
    await scheduler.enqueue(REF, ok.id, ok.channelId, "catchUp", due);
    await scheduler.enqueue(REF, gone.id, gone.channelId, "catchUp", due);
    const text = await until(
      async () => {
        const t = await (await fetch(`${base}/metrics`)).text();
        return t.includes('insights_deliveries_total{outcome="delivered"} 1') &&
          t.includes('insights_deliveries_total{outcome="failed"} 1')
          ? t
          : undefined;
      },
      20_000,
      "both verdicts in the metrics",
    );
    expect(text).toContain('insights_delivery_failures_total{source="slack",reason="channel_not_found"} 1');
    expect(text).toContain("insights_delivery_lateness_seconds_count 1");
    expect(text).toContain('insights_delivery_lateness_seconds_bucket{le="300"} 0');
    expect(text).toContain('insights_delivery_lateness_seconds_bucket{le="1800"} 1');
    expect(text).toContain("insights_failing_workspaces 1");
    expect(text).toContain('insights_redis_maxmemory_policy_info{policy="noeviction"} 1');
    expect(text).toMatch(/insights_queue_oldest_waiting_seconds \d/);
    expect(text).toMatch(/insights_queue_jobs\{state="prioritized"\} \d/);
    expect(text).not.toContain(DEMO.teamId);
    expect(text).not.toContain(ok.id);

    const log = createDeliveryLog({ redis: h.redis, keys: createKeyScheme({ prefix: h.prefix }) });
    const read = await until(
      async () => {
        const r = await log.read(new Date(), 2);
        return r.counts.length === 2 ? r : undefined;
      },
      5_000,
      "both verdicts in the log",
    );
    const ws = workspaceLabel(REF);
    expect(read.counts).toEqual(
      expect.arrayContaining([
        { period: due, workspace: ws, outcome: "late", code: "", n: 1 },
        { period: due, workspace: ws, outcome: "failed", code: "channel_not_found", n: 1 },
      ]),
    );
    expect(read.failures).toEqual([
      expect.objectContaining({ workspace: ws, subId: gone.id, period: due, reason: "channel_not_found" }),
    ]);
    // The log lives about two days, never for ever.
    const hour = hourOf(Date.parse(read.failures[0]?.at ?? ""));
    const ttl = await h.redis.ttl(createKeyScheme({ prefix: h.prefix }).deliveryLog(hour).counts);
    expect(ttl).toBeGreaterThan(47 * 3600);
    expect(ttl).toBeLessThanOrEqual(48 * 3600);
  });

  it("a job whose worker stopped renewing its lock is counted stalled, once, in the metrics and the log", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { queue } = h.producer();
    // A worker that takes the job and then stops without finishing it or renewing its lock.
    const conn = connect(h.redisUrl);
    const doomed = new Worker(queue.name, () => new Promise(() => undefined), {
      connection: conn,
      prefix: h.config.queuePrefix,
      lockDuration: 1_000,
      skipStalledCheck: true,
    });
    doomed.on("error", () => undefined);
    await queue.add(
      "digest",
      { sub: `${workspaceLabel(REF)}.nosuchsub`, period: "20261102T080000Z" },
      { jobId: "doomed" },
    );
    await until(async () => (await queue.getJobState("doomed")) === "active", 10_000, "the job taken");
    await doomed.close(true);
    conn.disconnect();
    const w = await h.worker({ healthPort: 0, locks: { lockDuration: 30_000, stalledInterval: 1_000 } });
    const text = await until(
      async () => {
        const t = await (await fetch(`http://127.0.0.1:${w.healthPort}/metrics`)).text();
        return t.includes("insights_queue_stalled_jobs_total 1") ? t : undefined;
      },
      15_000,
      "the stall counted",
    );
    expect(text).toContain("insights_queue_stalled_jobs_total 1");
    const log = createDeliveryLog({ redis: h.redis, keys: createKeyScheme({ prefix: h.prefix }) });
    expect((await log.read(new Date(), 2)).stalls).toBe(1);
  });

  it("the oldest waiting job's age counts from when it could run, prioritized jobs included", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { queue } = h.producer();
    const now = Date.now();
    expect(await oldestWaitingSeconds(queue, now)).toBe(0);
    await queue.add("digest", { sub: "-.T1.a", period: "p" }, { jobId: "plain" });
    await queue.add("digest", { sub: "-.T1.b", period: "p" }, { jobId: "ranked", priority: 3 });
    const counts = await queueCounts(queue);
    expect(counts).toMatchObject({ waiting: 1, prioritized: 1, active: 0, delayed: 0, failed: 0 });
    const age = await oldestWaitingSeconds(queue, Date.now() + 90_000);
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(95);
    await queue.remove("plain");
    expect(await oldestWaitingSeconds(queue, Date.now() + 30_000)).toBeGreaterThanOrEqual(30);
  });
});
