import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO, DEMO_API_KEY, type Stack } from "../../sandbox/stack.ts";
import { createTracing, type Tracing } from "../../src/tracing.ts";
import { command, connect, startTestStack } from "./helpers.ts";

const PREFIX = "slash-trace";
let stack: Stack;
const exporter = new InMemorySpanExporter();
let tracing: Tracing;

beforeAll(async () => {
  // Web and worker in this process share one exporter, as a collector would gather both.
  tracing = await createTracing({
    serviceName: "insights-digest",
    processors: [new SimpleSpanProcessor({ exporter })],
  });
  stack = await startTestStack({
    redisUrl: inject("redisUrl"),
    prefix: PREFIX,
    tracing,
    // Digests computed by the worker from the hand-off stream, as web + worker deployments do.
    interactive: "queue",
    worker: { tracing, interactive: { queueName: `interactive-${PREFIX}` } },
  });
  await connect(stack);
});
afterAll(async () => {
  await stack?.close();
  await tracing?.shutdown();
});

describe("a slash command's trace", () => {
  it("ack → answer: the answer's span, in the worker, continues the ack's trace; no secret in it", async () => {
    const reply = await command(stack, "last7d");
    expect(JSON.stringify(reply)).toContain("Insights");
    const finished = () => exporter.getFinishedSpans();
    const deadline = Date.now() + 5_000;
    while (!finished().some((s) => s.name === "interactive.answer") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    const spans = finished();
    const ack = spans.find(
      (s) => s.name === "slack.ack" && s.attributes["insights.request.name"] === "digest",
    );
    if (!ack) throw new Error(`no ack span among ${spans.map((s) => s.name).join(", ")}`);
    expect(ack.parentSpanContext).toBeUndefined();
    const traceId = ack.spanContext().traceId;
    const answer = spans.find((s) => s.name === "interactive.answer" && s.spanContext().traceId === traceId);
    expect(answer?.parentSpanContext?.spanId).toBe(ack.spanContext().spanId);
    expect(answer?.attributes).toMatchObject({
      "insights.request.kind": "command",
      "insights.outcome": "ok",
    });
    // The answer went out on the command's response_url: an event on the answer's span, its status only.
    expect(answer?.events.map((e) => [e.name, e.attributes?.["http.response.status_code"]])).toContainEqual([
      "slack.response_url",
      200,
    ]);
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const byId = new Map(inTrace.map((s) => [s.spanContext().spanId, s]));
    const under = (s: ReadableSpan, id: string): boolean => {
      const parent = byId.get(s.parentSpanContext?.spanId ?? "");
      return parent ? parent.spanContext().spanId === id || under(parent, id) : false;
    };
    const analytics = inTrace.filter((s) => s.name === "analytics.insights");
    expect(analytics.length).toBeGreaterThan(0);
    expect(analytics.every((s) => under(s, answer?.spanContext().spanId ?? ""))).toBe(true);
    const text = JSON.stringify(
      inTrace.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })),
    );
    // The stand-in serves response_urls on its own origin: no url of it, so no response_url, anywhere.
    for (const secret of [DEMO_API_KEY, DEMO.botToken, new URL(stack.slack.apiUrl).origin, "http://"])
      expect(text).not.toContain(secret);
  });
});
