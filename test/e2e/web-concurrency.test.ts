import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../sandbox/redis.ts";
import { streamKey } from "../../src/interactive/stream.ts";
import { type CliProcess, startCli } from "./cli-process.ts";
import { useFileStack, who } from "./helpers.ts";

/**
 * WEB_CONCURRENCY=2: `insights-digest web` runs two web processes sharing one port (node:cluster);
 * either acks and hands requests off, a dead one is replaced, and SIGTERM stops them all.
 */
const stack = useFileStack(`e2e-webc-${process.pid}`, {});
const PREFIX = `{t-webc-${process.pid}}`;
let web: CliProcess | undefined;
afterAll(async () => {
  await web?.stop();
});

const pidsOf = (lines: string[], msg: string) =>
  lines
    .filter((l) => l.includes(`"msg":"${msg}"`))
    .map((l) => (JSON.parse(l) as { worker?: number }).worker)
    .filter((p): p is number => typeof p === "number");

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("WEB_CONCURRENCY", () => {
  it("two web processes share the port, each hands requests off; a dead one is replaced; SIGTERM stops them all", async () => {
    const port = await freePort();
    web = startCli("web", { ...stack.env, PORT: String(port), QUEUE_PREFIX: PREFIX, WEB_CONCURRENCY: "2" });
    await web.waitForLine(/web cluster started/, 30_000);
    // Both must be listening, not only started: killing the only one that listens would leave the
    // port closed until the other's start finishes (slow on a loaded machine), and refuse connections.
    await stack.slack.waitFor(() => pidsOf(web?.lines ?? [], "web process listening").length === 2, {
      timeoutMs: 60_000,
      what: "two web processes listening",
    });
    const first = pidsOf(web.lines, "web process listening");
    expect(new Set(pidsOf(web.lines, "web process started"))).toEqual(new Set(first));
    expect(new Set(first).size).toBe(2);
    expect(first).not.toContain(web.child.pid);
    await stack.slack.waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true,
      { timeoutMs: 60_000, what: "the port answering" },
    );
    stack.slack.setAppUrl(`http://127.0.0.1:${port}/slack/events`);
    const key = streamKey(PREFIX);
    const send = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const sent = await stack.slack.sendCommand({ ...who(), text: `last${i + 2}d` });
        expect(sent.status, `command ${i}: ${sent.error ?? ""}`).toBe(200);
      }
    };
    // The ack goes out before the hand-off's write lands: wait for the stream to hold every request
    // (a lost one keeps it short and times the wait out), then hold it to the exact count.
    const handedOff = async (n: number) => {
      await stack.slack.waitFor(async () => (await stack.redis.xlen(key)) >= n, {
        timeoutMs: 10_000,
        what: `${n} requests in the stream`,
      });
      expect(await stack.redis.xlen(key)).toBe(n);
    };
    await send(10);
    await handedOff(10);

    // One web process dies: the other keeps answering, and a new one takes its place.
    const [doomed] = first as [number, number];
    process.kill(doomed, "SIGKILL");
    await web.waitForLine(/web process died; starting another/, 20_000);
    await send(5);
    await stack.slack.waitFor(() => pidsOf(web?.lines ?? [], "web process listening").length === 3, {
      timeoutMs: 60_000,
      what: "a replacement web process listening",
    });
    await send(5);
    await handedOff(20);

    const all = pidsOf(web.lines, "web process started");
    expect(await web.stop(30_000)).toBe(0);
    for (const pid of all) expect(alive(pid), `web process ${pid}`).toBe(false);
    web = undefined;
    stack.slack.setAppUrl(`${stack.web.url}/slack/events`);
  }, 180_000);
});
