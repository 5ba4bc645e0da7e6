import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { codeOf, createMetrics } from "../../src/metrics.ts";

describe("metrics", () => {
  it("exposes commands, digests, latencies and queue depth in Prometheus text", async () => {
    const m = createMetrics({ defaultMetrics: false, queueDepth: async () => ({ waiting: 3, active: 1 }) });
    m.commands.inc({ kind: "digest", outcome: "ok" });
    m.digests.inc({ surface: "scheduled", outcome: "failed", reason: "is_archived" });
    await m.timeAnalytics("insights", async () => 1);
    await expect(
      m.timeSlack("chat.postMessage", async () => Promise.reject(new AppError("ratelimited", "x"))),
    ).rejects.toThrow();
    const text = await m.registry.metrics();
    expect(text).toContain('insights_commands_total{kind="digest",outcome="ok"} 1');
    expect(text).toContain(
      'insights_digests_total{surface="scheduled",outcome="failed",reason="is_archived"} 1',
    );
    expect(text).toContain('insights_analytics_request_seconds_count{operation="insights",outcome="ok"} 1');
    expect(text).toContain(
      'insights_slack_request_seconds_count{method="chat.postMessage",outcome="ratelimited"} 1',
    );
    expect(text).toContain('insights_queue_jobs{state="waiting"} 3');
  });

  it("labels only safe codes", () => {
    expect(codeOf({ data: { error: "channel_not_found" } })).toBe("channel_not_found");
    expect(codeOf(new AppError("unavailable", "x"))).toBe("unavailable");
    expect(codeOf(new Error("U123 said <script>"))).toBe("error");
    expect(codeOf({ code: "Some User Text" })).toBe("error");
  });
});
