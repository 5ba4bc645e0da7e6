import { afterAll, describe, expect, it } from "vitest";
import { findElement } from "../../sandbox/slack/index.ts";
import { ACTION } from "../../src/ids.ts";
import { BUSY_TEXT } from "../../src/slack/frame/index.ts";
import { useFileStack, who } from "./helpers.ts";
import { spawnWorker, type WorkerProcess } from "./interactive-helpers.ts";

/**
 * Web + worker: the busy note goes by how long the waiting requests have waited, not by how many
 * wait. With no worker running yet, requests pile up in the stream; those sent while the oldest has
 * waited less than INTERACTIVE_BUSY_AFTER_MS ack empty, however many there are, and the first sent after
 * it gets the note in its ack. A worker then answers every one, the note replaced by its digest.
 */
const BUSY_AFTER_MS = 2_000;
const stack = useFileStack(`e2e-busy-wait-${process.pid}`, {
  interactive: "queue",
  connect: true,
  env: { INTERACTIVE_BUSY_AFTER_MS: String(BUSY_AFTER_MS), INTERACTIVE_BACKLOG: "1000" },
});
let worker: WorkerProcess | undefined;
afterAll(async () => {
  worker?.child.kill("SIGKILL");
  await worker?.exited;
});

const isDigest = (body: unknown) =>
  findElement((body as { blocks?: unknown[] }).blocks, ACTION.share) !== undefined;

describe("the busy note on a wait", () => {
  it("is given once the waiting requests have waited the bound, whatever their number", async () => {
    const texts = ["last8d", "last9d", "last10d", "last11d", "last12d"];
    const early = [];
    for (const text of texts) early.push(await stack.slack.sendCommand({ ...who(), text }));
    await new Promise((r) => setTimeout(r, BUSY_AFTER_MS + 500));
    const late = await stack.slack.sendCommand({ ...who(), text: "last13d" });

    for (const sent of [...early, late]) expect(sent.status).toBe(200);
    // Five waiting, the oldest for well under the bound: no note.
    for (const sent of early) expect(sent.body ?? "").toBe("");
    expect(JSON.stringify(late.body)).toContain(BUSY_TEXT);

    worker = await spawnWorker(stack, {});
    for (const sent of [...early, late]) {
      const url = sent.responseUrl as string;
      const digest = await stack.slack.waitFor(
        () => stack.slack.responses(url).find((r) => r.status === 200 && isDigest(r.body)),
        { timeoutMs: 20_000, what: `the digest for ${url}` },
      );
      expect(digest).toBeDefined();
    }
  }, 60_000);
});
