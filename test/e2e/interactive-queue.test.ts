import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { findElement } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { STREAM_GROUP, streamKey } from "../../src/interactive/stream.ts";
import { dumpRedis, naming } from "../setup/redis-dump.ts";
import { useFileStack, who } from "./helpers.ts";
import { requestClaims, spawnWorker, type WorkerProcess } from "./interactive-helpers.ts";

/**
 * Web + worker, as the Procfile runs them: the web process acks and hands the request off on a Redis
 * stream; only worker processes compute digests and answer through the request's response_url.
 */
const workers: WorkerProcess[] = [];
// Short leases, so a killed worker's request is taken over in about two seconds.
const FAST = { streamLeaseMs: 1_000, claimLeaseMs: 1_500, insightsLockMs: 3_000 };

const stack = useFileStack(`e2e-iq-${process.pid}`, { interactive: "queue", connect: true });
afterEach(async () => {
  for (const w of workers.splice(0)) {
    w.child.kill("SIGKILL");
    await w.exited;
  }
});

const key = () => streamKey(stack.config.queuePrefix, stack.interactiveQueue);
/** The stream's entries as stored: `[id, ["j", json]]`. */
const entries = async () => (await stack.redis.xrange(key(), "-", "+")) as [string, string[]][];

const accepted = (url: string) => stack.slack.responses(url).filter((r) => r.status === 200);

/**
 * Worker code that, on SIGUSR2, blocks the worker's main event loop (where its deliveries run) for 12 s
 * and says when it starts and ends; tests check the order, not the seconds. It sleeps in Atomics.wait
 * rather than spinning: blocked all the same, without taking a core from the tests running beside it.
 */
const HOG = `process.on("SIGUSR2", () => {
  process.stdout.write("hog-start\\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 12_000);
  process.stdout.write("hog-end\\n");
});`;

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
  it("the web process only hands off; a worker process computes the digest and answers on the response_url", async () => {
    const sent = await stack.slack.sendCommand({ ...who(), text: "last9d" });
    expect(sent.status).toBe(200);
    const url = sent.responseUrl as string;
    // One entry, written just after the ack (with whatever else came in those few milliseconds):
    // nothing of the digest happened in the web process.
    await stack.slack.waitFor(async () => (await entries()).length > 0, { timeoutMs: 2_000 });
    expect(await entries()).toHaveLength(1);
    expect(stack.slack.responses(url)).toEqual([]);
    // Not even the access check: it runs where the work runs.
    expect(stack.slack.calls({ method: "users.info" }).filter((c) => c.args.user === DEMO.member)).toEqual(
      [],
    );
    // The entry carries ids and the response_url, never a token.
    const data = JSON.stringify(await entries());
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
    // Done: acknowledged and deleted from the stream.
    await stack.slack.waitFor(async () => (await entries()).length === 0, { timeoutMs: 5_000 });
  });

  it("a finished request leaves nothing of its response_url in Redis (whoever holds one can post as the app to that person); its claim stays", async () => {
    // Keys of this stack: the store's and the stream's.
    const stored = async () => [
      ...(await dumpRedis(stack.redis, `${stack.prefix}:*`)),
      ...(await dumpRedis(stack.redis, `${stack.config.queuePrefix}:*`)),
    ];
    const claimed = Object.keys(await requestClaims(stack));
    const sent = await stack.slack.sendCommand({ ...who(), text: "last8d" });
    const url = sent.responseUrl as string;
    // Waiting for a worker, the request's entry holds the url: the dump below sees it where it is kept.
    await stack.slack.waitFor(async () => (await entries()).length > 0, { timeoutMs: 2_000 });
    expect(naming(await stored(), url).map((l) => l.split(" ")[0])).toEqual([key()]);

    workers.push(await spawnWorker(stack, {}));
    await stack.slack.waitFor(() => accepted(url)[0], { timeoutMs: 20_000 });
    await stack.slack.waitFor(async () => naming(await stored(), url).length === 0, {
      timeoutMs: 5_000,
      what: "the finished request's entry (with its response_url) gone from Redis",
    });
    // Acknowledged as well as deleted: nothing pending in the group for a takeover to run again.
    expect(await stack.redis.xpending(key(), STREAM_GROUP)).toEqual([0, null, null, null]);
    // What is kept of it is its claim, done, which names no url; its "sent" mark went with the answer.
    const claims = Object.entries(await requestClaims(stack)).filter(([k]) => !claimed.includes(k));
    expect(claims.map(([, v]) => v)).toEqual(["d"]);
    expect(JSON.stringify(claims)).not.toContain(url);
  });

  // Waits of up to 35 s (claimed 10, rescued 20, acknowledged 5): 25 s in a loaded full run.
  it("a worker killed while computing a digest: another takes the request over and the person gets one reply", {
    timeout: 60_000,
  }, async () => {
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
    // The taker acknowledged the dead worker's entry: nothing is left to run again.
    await stack.slack.waitFor(async () => (await entries()).length === 0, { timeoutMs: 5_000 });
  });

  it("with INTERACTIVE_WORKER_THREADS=1 a worker computes requests on a thread of its own: an answer goes out while its deliveries' event loop is blocked", {
    timeout: 60_000,
  }, async () => {
    // SIGUSR2 blocks the worker's main event loop (HOG): the answer must come before the hog's end.
    const worker = await spawnWorker(stack, { ...FAST, threads: 1 }, HOG);
    workers.push(worker);
    // Where cores are short, a request's turn comes first: the deliveries' thread (the main one) runs
    // at nice 13, the request thread at WORKER_NICE (10).
    const niceOf = (tid: string) => {
      const stat = readFileSync(`/proc/${worker.child.pid}/task/${tid}/stat`, "utf8");
      // Fields after the command's closing parenthesis: state is the first, nice the 17th.
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    };
    expect(niceOf(String(worker.child.pid))).toBe(13);
    await stack.slack.waitFor(
      () => readdirSync(`/proc/${worker.child.pid}/task`).some((tid) => niceOf(tid) === 10),
      { timeoutMs: 10_000, what: "the request thread at nice 10" },
    );
    stack.emulator.inject({ kind: "latency", ms: 1_000 }, 1);
    const sent = await stack.slack.sendCommand({ ...who(), text: "last11d" });
    const url = sent.responseUrl as string;
    await stack.slack.waitFor(
      async () => Object.values(await requestClaims(stack)).some((v) => v.startsWith("p|")),
      { timeoutMs: 10_000, what: "the request claimed by the worker" },
    );
    worker.child.kill("SIGUSR2");
    await stack.slack.waitFor(() => worker.said.includes("hog-start"), { timeoutMs: 5_000 });
    const reply = await stack.slack.waitFor(() => accepted(url)[0], {
      timeoutMs: 11_000,
      what: "the answer, while the worker's main event loop is blocked",
    });
    expect(worker.said).not.toContain("hog-end");
    expect(findElement((reply.body as { blocks: unknown[] }).blocks, ACTION.share)).toBeDefined();
    await stack.slack.waitFor(() => worker.said.includes("hog-end"), { timeoutMs: 15_000 });
    expect(stack.slack.responses(url)).toHaveLength(1);
  });

  it("a worker's request thread reads the hand-off stream itself: a request sent while the worker's main event loop is blocked is read and answered meanwhile", {
    timeout: 60_000,
  }, async () => {
    const worker = await spawnWorker(stack, { ...FAST, threads: 1 }, HOG);
    workers.push(worker);
    // The thread is up once it has answered one request.
    const warm = await stack.slack.sendCommand({ ...who(), text: "last12d" });
    await stack.slack.waitFor(() => accepted(warm.responseUrl as string)[0], { timeoutMs: 15_000 });
    worker.child.kill("SIGUSR2");
    await stack.slack.waitFor(() => worker.said.includes("hog-start"), { timeoutMs: 5_000 });
    // Sent after the main loop stopped: read from the stream, run and answered by the thread alone
    // (read on the main loop, it would wait for the hog's end).
    const sent = await stack.slack.sendCommand({ ...who(), text: "last13d" });
    const url = sent.responseUrl as string;
    const reply = await stack.slack.waitFor(() => accepted(url)[0], {
      timeoutMs: 11_000,
      what: "the answer, while the worker's main event loop is blocked",
    });
    expect(worker.said).not.toContain("hog-end");
    expect(findElement((reply.body as { blocks: unknown[] }).blocks, ACTION.share)).toBeDefined();
    await stack.slack.waitFor(() => worker.said.includes("hog-end"), { timeoutMs: 15_000 });
    // Acknowledged by the thread too: nothing is left in the stream to run again.
    await stack.slack.waitFor(async () => (await entries()).length === 0, { timeoutMs: 5_000 });
    expect(stack.slack.responses(url)).toHaveLength(1);
  });

  // Its waits add up to 50 s (claimed 10, rescued 20, the resumed worker 20): on a loaded machine
  // the three steps took over 30 s, where alone they take 8.
  it("a worker frozen mid-digest loses the request to another; resumed, it does not answer a second time", {
    timeout: 60_000,
  }, async () => {
    const { worker: frozen, url } = await workerMidDigest(3_000, "last17d");
    frozen.child.kill("SIGSTOP");
    await rescued(url);

    frozen.child.kill("SIGCONT");
    // Held back where it would have answered; or, when its run failed on the connection its freeze
    // timed out and ran again, where it took the request's claim.
    const heldBack = () =>
      frozen.lines.some(
        (l) =>
          l.msg === "another run took this request over; not answering it again" ||
          l.msg === "request already answered by an earlier run",
      );
    await stack.slack.waitFor(() => heldBack() || stack.slack.responses(url).length > 1, {
      timeoutMs: 20_000,
      what: "the resumed worker reaching its answer",
    });
    expect(stack.slack.responses(url)).toHaveLength(1);
    expect(heldBack()).toBe(true);
  });
});
