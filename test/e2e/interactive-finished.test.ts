import { Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useFileStack, who } from "./helpers.ts";
import { spawnWorker, type WorkerProcess } from "./interactive-helpers.ts";

/**
 * A finished interactive job keeps its ids for diagnosis, never its response_url: whoever holds one
 * can post as the app to that person for half an hour, and the answer is already out.
 */
let queue: Queue;
const workers: WorkerProcess[] = [];
const stack = useFileStack(`e2e-if-${process.pid}`, { interactive: "queue", connect: true });
beforeAll(() => {
  queue = new Queue(stack.interactiveQueue, { connection: stack.redis, prefix: stack.config.queuePrefix });
});
afterEach(async () => {
  for (const w of workers.splice(0)) {
    w.child.kill("SIGKILL");
    await w.exited;
  }
});
afterAll(async () => queue?.close());

describe("a finished interactive job", () => {
  it("drops its response_url as soon as the answer is out", async () => {
    workers.push(await spawnWorker(stack, {}));
    const sent = await stack.slack.sendCommand({ ...who(), text: "last8d" });
    const url = sent.responseUrl as string;
    await stack.slack.waitFor(() => stack.slack.responses(url).find((r) => r.status === 200), {
      timeoutMs: 20_000,
    });
    const kept = await stack.slack.waitFor(
      async () => {
        const [job] = await queue.getCompleted();
        return job && !JSON.stringify(job.data).includes(url) ? job : undefined;
      },
      { timeoutMs: 5_000, what: "the completed job without its response_url" },
    );
    expect(kept.data.body).not.toHaveProperty("response_url");
    expect(kept.data.userId).toBe(who().userId);
  });
});
