import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findElement } from "../../sandbox/slack/index.ts";
import { type Stack, startStack } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { BUSY_TEXT } from "../../src/slack/frame/index.ts";
import { command, connect, who } from "./helpers.ts";

/**
 * Admission control, single process (`start`: digest threads): one thread computing one digest at
 * a time, and one request allowed to wait. The next one is told at once that its answer is coming.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    redisUrl: inject("redisUrl"),
    prefix: `e2e-busy-${process.pid}`,
    env: { INTERACTIVE_BACKLOG: "1", INTERACTIVE_CONCURRENCY: "1", INTERACTIVE_THREADS: "1" },
  });
  await connect(stack);
  // The thread is up and idle: the first digest has been answered.
  await command(stack, "last7d");
});
afterAll(async () => stack?.close());

const isDigest = (body: unknown) =>
  findElement((body as { blocks?: unknown[] }).blocks, ACTION.share) !== undefined;

describe("a backlog past its bound", () => {
  it("the request over the bound gets the busy reply at once, then its digest in its place", async () => {
    // The first digest's query takes 2 s: the second waits behind it, the third finds the backlog full.
    stack.emulator.inject({ kind: "latency", ms: 2_000 }, 1);
    const urls: string[] = [];
    const queried = stack.emulator.requestCount();
    for (const text of ["last11d", "last12d", "last13d"]) {
      const sent = await stack.slack.sendCommand({ ...who(), text });
      expect(sent.status).toBe(200);
      urls.push(sent.responseUrl as string);
      // Only once the thread is computing the first digest is the backlog what the test says:
      // sent back to back, a slow machine could still hold the first one in the queue.
      if (urls.length === 1) {
        await stack.slack.waitFor(() => stack.emulator.requestCount() > queried || undefined, {
          timeoutMs: 10_000,
        });
      }
    }
    const [first, second, third] = urls as [string, string, string];
    const busy = await stack.slack.waitFor(() => stack.slack.responses(third)[0], { timeoutMs: 5_000 });
    expect(JSON.stringify(busy.body)).toContain(BUSY_TEXT);

    const digest = await stack.slack.waitFor(() => stack.slack.responses(third)[1], { timeoutMs: 20_000 });
    expect(digest.outcome).toBe("replaced");
    expect(isDigest(digest.body)).toBe(true);
    for (const url of [first, second]) {
      const replies = stack.slack.responses(url);
      expect(replies).toHaveLength(1);
      expect(isDigest(replies[0]?.body)).toBe(true);
    }

    const metrics = await (await fetch(`${stack.web.url}/metrics`)).text();
    expect(metrics).toContain('insights_interactive_requests_total{outcome="busy"} 1');
    expect(metrics).toMatch(/insights_interactive_backlog 0/);
  });
});
