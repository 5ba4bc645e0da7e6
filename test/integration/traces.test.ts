import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import { createTracing, inSpan, NO_TRACING } from "../../src/tracing.ts";
import { deliveryRecorded, type Harness, OWNER, REF, startHarness, until } from "./worker-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** Spans as an OTLP collector would show them: names, ids, parents, attributes. */
const exported = (spans: ReadableSpan[]) =>
  spans.map((s) => ({
    name: s.name,
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId,
    attributes: s.attributes,
    status: s.status,
  }));

describe("traces", () => {
  it("off without an endpoint: the API's no-op tracer, nothing loaded or recorded", async () => {
    expect(await createTracing({ serviceName: "t" })).toBe(NO_TRACING);
    const span = NO_TRACING.tracer.startSpan("x");
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  it("on with an endpoint: spans are posted over OTLP/HTTP to <endpoint>/v1/traces", async () => {
    const got: { path: string; type: string; size: number }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        got.push({
          path: req.url ?? "",
          type: String(req.headers["content-type"]),
          size: Buffer.concat(chunks).length,
        });
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      const tracing = await createTracing({ endpoint: `http://127.0.0.1:${port}/`, serviceName: "t" });
      expect(tracing.enabled).toBe(true);
      await inSpan(tracing.tracer, "probe", { "insights.probe": 1 }, async () => undefined);
      await tracing.shutdown();
      expect(got).toHaveLength(1);
      expect(got[0]?.path).toBe("/v1/traces");
      expect(got[0]?.size).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });

  it("one digest's trace: slot fire → fan-out → delivery → analytics request(s) and the Slack post, no secret in any attribute", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const exporter = new InMemorySpanExporter();
    const tracing = await createTracing({
      serviceName: "insights-digest-worker",
      processors: [new SimpleSpanProcessor({ exporter })],
    });
    const { subscriptions, queue } = h.producer();
    await h.worker({ tracing });
    const { subscription: sub } = await subscriptions.create(
      REF,
      { channelId: DEMO.general, schedule: { kind: "daily" }, tz: "UTC" },
      OWNER,
    );
    const slot = slotOf(sub);
    if (!slot) throw new Error("an active subscription has a slot");
    // The slot's scheduler firing now, as BullMQ adds its job.
    const fire = Math.floor(Date.now() / 60_000) * 60_000;
    await queue.add("slot", { slot: slot.id }, { jobId: `repeat:${slotSchedulerId(slot.id)}:${fire}` });
    await deliveryRecorded(subscriptions, sub.id, periodOf(fire), 20_000);
    // The delivery span ends once the job's processor returns, just after the record is written.
    await until(
      () => exporter.getFinishedSpans().some((s) => s.name === "delivery"),
      5_000,
      "the delivery span",
    );
    const spans = exported(exporter.getFinishedSpans());
    const dir = join(process.cwd(), "test", "artifacts", "traces");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "digest-trace.json"), `${JSON.stringify(spans, null, 2)}\n`);

    const one = (name: string) => {
      const found = spans.filter((s) => s.name === name);
      expect(found, name).toHaveLength(1);
      return found[0] as (typeof spans)[number];
    };
    const root = one("slot.fire");
    expect(root.parentSpanId).toBeUndefined();
    expect(root.attributes["insights.slot"]).toBe(slot.id);
    const fanout = one("slot.fanout");
    expect(fanout.parentSpanId).toBe(root.spanId);
    expect(fanout.attributes["insights.jobs"]).toBe(1);
    // The delivery ran as another job, maybe in another process: it joined the trace by its traceparent.
    const delivery = one("delivery");
    expect(delivery.parentSpanId).toBe(fanout.spanId);
    expect(delivery.attributes).toMatchObject({
      "insights.result": "delivered",
      "insights.period": periodOf(fire),
    });
    const trace = spans.filter((s) => s.traceId === root.traceId);
    const under = (s: (typeof spans)[number], ancestor: string): boolean => {
      const parent = trace.find((p) => p.spanId === s.parentSpanId);
      return parent ? parent.spanId === ancestor || under(parent, ancestor) : false;
    };
    const analytics = trace.filter((s) => s.name.startsWith("analytics."));
    // The digest's query is asked once: under its delivery, or under the fan-out when the slot's
    // warm-up (drivers planned as the fan-out reads the members) asked it first and the delivery read
    // the shared result — which of the two wins is a race, and both are one trace.
    const asked = analytics
      .filter((s) => under(s, delivery.spanId) || under(s, fanout.spanId))
      .map((s) => s.name);
    expect(
      asked.filter((n) => n === "analytics.insights" || n === "analytics.insights_with_slices"),
    ).toHaveLength(1);
    expect(analytics.every((s) => under(s, delivery.spanId) || under(s, fanout.spanId))).toBe(true);
    const post = trace.filter((s) => s.name === "slack.chat.postMessage");
    expect(post).toHaveLength(1);
    expect(under(post[0] as (typeof spans)[number], delivery.spanId)).toBe(true);
    // Every span of the run is in this one trace.
    expect(spans.every((s) => s.traceId === root.traceId)).toBe(true);

    const text = JSON.stringify(spans);
    for (const secret of [DEMO_API_KEY, DEMO.botToken, h.slack.apiUrl, "xoxb-", "ApiKey"])
      expect(text).not.toContain(secret);
  });
});
