import { describe, expect, it } from "vitest";
import { hourOf, latenessMs, logOutcome } from "../../src/jobs/delivery-log.ts";
import { failureLabel, failureSource } from "../../src/jobs/failures.ts";
import { readySince } from "../../src/jobs/queue-state.ts";
import { createVerdictSink } from "../../src/jobs/verdicts.ts";
import { silentLogger } from "../../src/log.ts";
import { createMetrics } from "../../src/metrics.ts";

const PERIOD = "20261102T080000Z";
const at = (s: number) => new Date(Date.parse("2026-11-02T08:00:00Z") + s * 1000).toISOString();

describe("failure labels", () => {
  it("names where a failure came from", () => {
    expect(failureSource("channel_not_found")).toBe("slack");
    expect(failureSource("http_502")).toBe("slack");
    expect(failureSource("ratelimited")).toBe("slack");
    expect(failureSource("unauthorized")).toBe("analytics");
    expect(failureSource("unavailable")).toBe("analytics");
    expect(failureSource("stalled")).toBe("app");
    expect(failureSource("something_new")).toBe("app");
  });

  it("keeps the label set bounded: unknown codes are other, HTTP statuses one label", () => {
    expect(failureLabel("channel_not_found")).toBe("channel_not_found");
    expect(failureLabel("graphql")).toBe("graphql");
    expect(failureLabel("stalled")).toBe("stalled");
    expect(failureLabel("http_503")).toBe("http_error");
    expect(failureLabel("T0123 said no")).toBe("other");
    expect(failureLabel("a_brand_new_slack_error")).toBe("other");
  });
});

describe("verdicts as the log counts them", () => {
  it("measures lateness from the scheduled minute; test sends have none", () => {
    expect(latenessMs({ period: PERIOD, at: at(42) })).toBe(42_000);
    expect(latenessMs({ period: "send-abc-123", at: at(42) })).toBeNull();
    // A clock a little behind the fire time is not negative lateness.
    expect(latenessMs({ period: PERIOD, at: at(-1) })).toBe(0);
  });

  it("tells a late post from one on time at the threshold", () => {
    const digest = {};
    expect(logOutcome(digest, { period: PERIOD, at: at(300), outcome: "delivered" }, 300_000)).toEqual({
      outcome: "delivered",
      code: "",
    });
    expect(logOutcome(digest, { period: PERIOD, at: at(301), outcome: "delivered" }, 300_000)).toEqual({
      outcome: "late",
      code: "",
    });
    expect(
      logOutcome(digest, { period: PERIOD, at: at(1), outcome: "failed", reason: "is_archived" }, 300_000),
    ).toEqual({ outcome: "failed", code: "is_archived" });
    expect(
      logOutcome({ mode: "alert" }, { period: PERIOD, at: at(1), outcome: "skipped", reason: "x" }, 1),
    ).toEqual({ outcome: "skipped", code: "alert" });
  });

  it("hours are UTC clock hours", () => {
    expect(hourOf(Date.parse("2026-11-02T08:59:59.999Z"))).toBe("20261102T08");
    expect(hourOf(Date.parse("2026-12-31T23:00:00Z"))).toBe("20261231T23");
  });
});

describe("queue age", () => {
  it("counts a job's wait from when it could first run", () => {
    expect(readySince({ timestamp: 1_000, delay: 60_000 })).toBe(61_000);
    // Put back by a backoff or pacing after it ran: from its last start plus the new delay.
    expect(readySince({ timestamp: 1_000, processedOn: 90_000, delay: 5_000 })).toBe(95_000);
    expect(readySince({ timestamp: 1_000 })).toBe(1_000);
  });
});

describe("the verdict sink", () => {
  it("counts outcomes, failures by source and reason, and lateness; no ids in any label", async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const sink = createVerdictSink({ metrics, logger: silentLogger() });
    const sub = { ref: { teamId: "T0SECRET1" }, id: "sub12345" };
    sink(sub, { period: PERIOD, at: at(12), outcome: "delivered", messageTs: "1.2" });
    sink(sub, { period: "send-x-1", at: at(12), outcome: "delivered", messageTs: "1.3" });
    sink(sub, { period: PERIOD, at: at(12), outcome: "failed", reason: "channel_not_found" });
    sink(sub, { period: PERIOD, at: at(12), outcome: "failed", reason: "Slack said <b>no</b>" });
    sink(sub, { period: PERIOD, at: at(12), outcome: "skipped", reason: "violations 3, under 500" });
    const text = await metrics.registry.metrics();
    expect(text).toContain('insights_deliveries_total{outcome="delivered"} 2');
    expect(text).toContain('insights_deliveries_total{outcome="failed"} 2');
    expect(text).toContain('insights_deliveries_total{outcome="skipped"} 1');
    expect(text).toContain('insights_delivery_failures_total{source="slack",reason="channel_not_found"} 1');
    expect(text).toContain('insights_delivery_failures_total{source="app",reason="other"} 1');
    // The test send has no scheduled minute: one observation, in the 15 s bucket.
    expect(text).toContain("insights_delivery_lateness_seconds_count 1");
    expect(text).toContain('insights_delivery_lateness_seconds_bucket{le="5"} 0');
    expect(text).toContain('insights_delivery_lateness_seconds_bucket{le="15"} 1');
    expect(text).not.toContain("T0SECRET1");
    expect(text).not.toContain("sub12345");
    expect(text).not.toContain("<b>");
  });

  it("reads gauges when scraped: queue age, failing workspaces, the eviction policy as an info metric", async () => {
    let policy = "noeviction";
    const metrics = createMetrics({
      defaultMetrics: false,
      oldestWaiting: async () => 12.5,
      failingWorkspaces: async () => 3,
      evictionPolicy: () => policy,
    });
    let text = await metrics.registry.metrics();
    expect(text).toContain("insights_queue_oldest_waiting_seconds 12.5");
    expect(text).toContain("insights_failing_workspaces 3");
    expect(text).toContain('insights_redis_maxmemory_policy_info{policy="noeviction"} 1');
    policy = "allkeys-lru";
    text = await metrics.registry.metrics();
    // The old policy's series is gone, not left at 1 beside the new one.
    expect(text).not.toContain('policy="noeviction"');
    expect(text).toContain('insights_redis_maxmemory_policy_info{policy="allkeys-lru"} 1');
    policy = "something odd";
    expect(await metrics.registry.metrics()).toContain(
      'insights_redis_maxmemory_policy_info{policy="other"} 1',
    );
  });
});
