import { Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findElement } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { useFileStack, who } from "./helpers.ts";
import { requestClaims, spawnWorker, type WorkerProcess } from "./interactive-helpers.ts";

/**
 * Web + worker, as the Procfile runs them: the web process acks and queues; only worker processes
 * compute digests and answer through the request's response_url.
 */
let queue: Queue;
const workers: WorkerProcess[] = [];
// Short locks and leases, so a killed worker's request is taken over in about two seconds.
const FAST = {
  locks: { lockDuration: 1_000, stalledInterval: 500 },
  claimLeaseMs: 1_500,
  insightsLockMs: 3_000,
};

const stack = useFileStack(`e2e-iq-${process.pid}`, { interactive: "queue", connect: true });
beforeAll(() => {
  queue = new Queue(stack.interactiveQueue, { connection: stack.redis, prefix: stack.config.queuePrefix });
});
afterEach(async () => {
  for (const w of workers.splice(0)) {
    w.child.kill("SIGKILL");
    await w.exited;
  }
});
// Before the stack's own afterAll (hooks after tests run last-registered first).
afterAll(async () => queue?.close());

const accepted = (url: string) => stack.slack.responses(url).filter((r) => r.status === 200);

/** A worker process that has claimed a digest request and is mid-digest: its analytics call takes `ms`. */
async function workerMidDigest(ms: number, text: string) {
  const worker = await spawnWorker(stack, FAST);
  workers.push(worker);
  stack.emulator.inject({ kind: "latency", ms }, 1);
  const sent = await stack.slack.sendCommand({ ...who(), text });
  const url = sent.responseUrl as string;
  await stack.slack.waitFor(
    async () => Object.values(await requestClaims(stack)).some((v) => v.startsWith("p|")),
    { timeoutMs: 10_000, what: "the request claimed by the worker" },
  );
  return { worker, url };
}

/** A new worker takes the request over: the person gets the digest on the response_url. */
async function rescued(url: string): Promise<void> {
  workers.push(await spawnWorker(stack, FAST));
  const reply = await stack.slack.waitFor(() => accepted(url)[0], { timeoutMs: 20_000 });
  expect(findElement((reply.body as { blocks: unknown[] }).blocks, ACTION.share)).toBeDefined();
}

describe("digests computed by worker processes", () => {
  it("the web process only queues; a worker process computes the digest and answers on the response_url", async () => {
    const sent = await stack.slack.sendCommand({ ...who(), text: "last9d" });
    expect(sent.status).toBe(200);
    const url = sent.responseUrl as string;
    await stack.slack.waitFor(async () => (await queue.getWaitingCount()) === 1, { timeoutMs: 5_000 });
    expect(stack.slack.responses(url)).toEqual([]);
    // Job data carries ids and the response_url, never a token.
    const data = JSON.stringify((await queue.getWaiting()).map((j) => j.data));
    expect(data).toContain(url);
    expect(data).not.toContain(DEMO.botToken);
    expect(data).not.toMatch(/xox[bp]-/);

    const worker = await spawnWorker(stack, {});
    workers.push(worker);
    const reply = await stack.slack.waitFor(() => accepted(url)[0], { timeoutMs: 15_000 });
    expect(reply.outcome).toBe("ephemeral");
    const body = reply.body as { blocks: unknown[]; text: string };
    expect(findElement(body.blocks, ACTION.share)).toBeDefined();
    expect(body.text).toMatch(/Insights/);
    // The answer came from the worker's process: its own log line says it handled this command.
    const handled = await stack.slack.waitFor(
      () => worker.lines.find((l) => l.msg === "command handled" && l.kind === "digest"),
      { timeoutMs: 5_000 },
    );
    expect(handled.pid).toBe(worker.child.pid);
    expect(handled.pid).not.toBe(process.pid);
    expect(handled.userId).toBe(DEMO.member);
  });

  it("a finished job keeps its ids for diagnosis, never its response_url (whoever holds one can post as the app to that person)", async () => {
    workers.push(await spawnWorker(stack, {}));
    const before = await queue.getCompletedCount();
    const sent = await stack.slack.sendCommand({ ...who(), text: "last8d" });
    const url = sent.responseUrl as string;
    await stack.slack.waitFor(() => accepted(url)[0], { timeoutMs: 20_000 });
    const kept = await stack.slack.waitFor(
      async () => {
        const done = await queue.getCompleted();
        return done.length > before && done.every((j) => !JSON.stringify(j.data).includes(url))
          ? done
          : undefined;
      },
      { timeoutMs: 5_000, what: "the completed jobs without their response_url" },
    );
    for (const job of kept) expect(job.data.body).not.toHaveProperty("response_url");
    expect(kept.some((j) => j.data.userId === who().userId)).toBe(true);
  });

  it("a worker killed while computing a digest: another takes the request over and the person gets one reply", async () => {
    // The doomed worker's analytics request takes 5 s: it is mid-digest when it dies.
    const { worker: doomed, url } = await workerMidDigest(5_000, "last13d");
    doomed.child.kill("SIGKILL");
    expect(await doomed.exited).toMatchObject({ signal: "SIGKILL" });
    expect(stack.slack.responses(url)).toEqual([]);

    await rescued(url);
    // Long enough for any second run (a stalled-job retry) to have answered too.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(stack.slack.responses(url)).toHaveLength(1);
    expect(Object.values(await requestClaims(stack))).toContain("d");
  });

  it("a worker frozen mid-digest loses the request to another; resumed, it does not answer a second time", async () => {
    const { worker: frozen, url } = await workerMidDigest(3_000, "last17d");
    frozen.child.kill("SIGSTOP");
    await rescued(url);

    frozen.child.kill("SIGCONT");
    const heldBack = () =>
      frozen.lines.some((l) => l.msg === "another run took this request over; not answering it again");
    await stack.slack.waitFor(() => heldBack() || stack.slack.responses(url).length > 1, {
      timeoutMs: 20_000,
      what: "the resumed worker reaching its answer",
    });
    expect(stack.slack.responses(url)).toHaveLength(1);
    expect(heldBack()).toBe(true);
  });
});
