import { beforeAll, describe, expect, it } from "vitest";
import { findElement } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { BUSY_TEXT } from "../../src/slack/frame/index.ts";
import { command, useFileStack, who } from "./helpers.ts";

/**
 * Admission control, single process (`start`: digest threads): one thread computing one digest at
 * a time, and one request allowed to wait. The next one is told at once, in its ack, that its answer
 * is coming; no request of ours goes out before the hand-off.
 */

const stack = useFileStack(`e2e-busy-${process.pid}`, {
  env: { INTERACTIVE_BACKLOG: "1", INTERACTIVE_CONCURRENCY: "1", INTERACTIVE_THREADS: "1" },
  connect: true,
});
beforeAll(async () => {
  // The thread is up and idle: the first digest has been answered.
  await command(stack, "last7d");
});

const isDigest = (body: unknown) =>
  findElement((body as { blocks?: unknown[] }).blocks, ACTION.share) !== undefined;

describe("a backlog past its bound", () => {
  it("the command over the bound gets the busy note in its ack, then its digest in the note's place", async () => {
    // The first digest's query takes 2 s: the second waits behind it, the third finds the backlog full.
    stack.emulator.inject({ kind: "latency", ms: 2_000 }, 1);
    const queried = stack.emulator.requestCount();
    const urls: string[] = [];
    const acks: unknown[] = [];
    for (const text of ["last11d", "last12d", "last13d"]) {
      const sent = await stack.slack.sendCommand({ ...who(), text });
      expect(sent.status).toBe(200);
      urls.push(sent.responseUrl as string);
      acks.push(sent.body);
      // The warm-up's reply can land before its thread reports itself free: until the first digest's
      // query reaches the emulator it may still sit in the backlog, and the second would be the one
      // answered busy.
      if (urls.length === 1) await stack.slack.waitFor(() => stack.emulator.requestCount() > queried);
    }
    const [first, second, third] = urls as [string, string, string];
    // The note is the third command's ack; the first two acked empty.
    expect(JSON.stringify(acks[2])).toContain(BUSY_TEXT);
    expect(acks[0] ?? "").toBe("");
    expect(acks[1] ?? "").toBe("");
    const note = stack.slack.responses(third)[0];
    expect(note?.outcome).toBe("ack");
    expect(
      stack.slack.ephemerals(DEMO.member).some((m) => JSON.stringify(m.text).includes("busy right now")),
    ).toBe(true);

    const digest = await stack.slack.waitFor(() => stack.slack.responses(third)[1], { timeoutMs: 20_000 });
    expect(digest.outcome).toBe("replaced");
    expect(isDigest(digest.body)).toBe(true);
    // The note was replaced in place: the person sees the digest, not the note.
    expect(
      stack.slack.ephemerals(DEMO.member).some((m) => JSON.stringify(m.text).includes("busy right now")),
    ).toBe(false);
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
