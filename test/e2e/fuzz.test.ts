import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO, type Stack, startStack } from "../../src/sandbox/stack.ts";
import { connect } from "./helpers.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ redisUrl: inject("redisUrl"), prefix: `e2e-fuzz-${process.pid}` });
  await connect(stack);
});
afterAll(async () => stack?.close());

const words = fc.constantFrom(
  "last7d",
  "last0d",
  "last365d",
  "last366d",
  "thisweek",
  "lastweek",
  "thismonth",
  "lastmonth",
  "help",
  "status",
  "2026-11-01..2026-11-15",
  "2026-02-30",
  "2026-11-15..2026-11-01",
  "asset:",
  'asset:"payments / api"',
  "asset:“x”",
  "scanner:sast",
  "scanner:",
  "subscribe",
  "pause",
  "send",
  "<@U123>",
  "<!channel>",
  "&amp;",
  "*bold*",
  "🔥",
  "lst7d",
);
const slashText = fc.oneof(
  fc.array(words, { maxLength: 5 }).map((w) => w.join(" ")),
  fc.string({ unit: "grapheme", maxLength: 120 }),
  fc.array(fc.oneof(words, fc.string({ maxLength: 12 })), { maxLength: 6 }).map((w) => w.join(" ")),
);

describe("2,000 random slash texts", () => {
  it("every one gets a helpful reply and the app stays up", async () => {
    const texts = fc.sample(slashText, { numRuns: 2000, seed: 4242 });
    const problems: string[] = [];
    const queue = [...texts];
    const worker = async () => {
      for (let text = queue.shift(); text !== undefined; text = queue.shift()) {
        const sent = await stack.slack.sendCommand({
          teamId: DEMO.teamId,
          userId: DEMO.member,
          channelId: DEMO.general,
          text,
        });
        if (sent.status !== 200) {
          problems.push(`${JSON.stringify(text)} → HTTP ${sent.status}`);
          continue;
        }
        const reply = await stack.slack
          .waitFor(() => stack.slack.responses(sent.responseUrl)[0], { timeoutMs: 10_000 })
          .catch(() => undefined);
        const body = reply?.body as { text?: string; blocks?: unknown[] } | undefined;
        const all = `${body?.text ?? ""} ${JSON.stringify(body?.blocks ?? [])}`;
        // Helpful = a digest, a usage/status answer, or a warning that says what to do next.
        const helpful = /findings|\/insights|Analytics endpoint|Usage|last7d/.test(all);
        if (!helpful || /Something went wrong on our side/.test(all))
          problems.push(`${JSON.stringify(text)} → ${all.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(problems).toEqual([]);
    const health = await fetch(`${stack.web.url}/healthz`);
    expect(health.status).toBe(200);
  }, 120_000);
});
