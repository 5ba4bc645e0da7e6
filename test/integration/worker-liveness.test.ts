import { afterEach, describe, expect, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { capturingLogger } from "../../sandbox/stack.ts";
import { connectRedis } from "../../src/app/redis.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { FRESH, judge } from "../../src/jobs/liveness.ts";
import { silentLogger } from "../../src/log.ts";
import { workspaceLabel } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { type Harness, insertSubscription, REF, sleep, startHarness, until } from "./worker-harness.ts";

/**
 * The silent stall, for real: the worker's blocking connection (BullMQ's BZPOPMIN) is killed while
 * Redis refuses new connections (maxclients reached: another client leaking connections does this in
 * production). Every other connection of the worker keeps working, so Redis answers its pings,
 * `isRunning()` stays true, and BullMQ waits for ever for the blocking connection to come back.
 */

let h: Harness | undefined;
let redis: PrivateRedis | undefined;
const conns: RedisClient[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) c.disconnect();
  await h?.close();
  await redis?.destroy();
  h = undefined;
  redis = undefined;
});

const field = (info: string, name: string) => Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1]);

describe("a worker that says it runs and takes no jobs", () => {
  it("is caught within 30 s: one log line, /livez and /readyz 503, its BullMQ worker rebuilt; the jobs go out once Redis takes connections again", {
    timeout: 120_000,
  }, async () => {
    redis = await startPrivateRedis();
    h = await startHarness({ redisUrl: redis.url });
    const harness = h;
    const admin = connectRedis(redis.url, silentLogger());
    conns.push(admin);
    const captured = capturingLogger("info");
    const w = await harness.worker({ healthPort: 0, stallMs: 10_000, logger: captured.logger });
    const first = w.worker;
    // Everything the test itself needs is connected before Redis stops taking connections.
    const { queue } = harness.producer();
    await queue.getJobCounts("wait");
    const subs = await Promise.all(
      [0, 1, 2].map(() => insertSubscription(harness, { channelId: DEMO.security, drivers: false })),
    );
    const http = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${w.healthPort}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect((await http("/livez")).status).toBe(200);

    const blockingName = `${harness.config.queuePrefix}:${Buffer.from(harness.queueName).toString("base64")}`;
    const blockingId = await until(
      async () =>
        new RegExp(`^id=(\\d+) .*name=${blockingName.replace(/[{}]/g, "\\$&")} `, "m").exec(
          String(await admin.client("LIST")),
        )?.[1],
      10_000,
      "the worker's blocking connection",
    );
    const clients = field(await admin.info("clients"), "connected_clients");
    await admin.config("SET", "maxclients", String(clients - 1));
    await admin.client("KILL", "ID", blockingId);

    const enqueuedAt = Date.now();
    await queue.addBulk(
      subs.map((s) => ({
        name: "catchup",
        data: { sub: `${workspaceLabel(REF)}.${s.id}`, period: "20261102T080000Z", ch: s.channelId },
        opts: { jobId: `stall.${s.id}` },
      })),
    );
    // The stall itself: it says it runs, Redis answers, and the jobs wait untaken.
    await sleep(5_000);
    expect(first.isRunning()).toBe(true);
    expect(await queue.getJobCounts("wait")).toMatchObject({ wait: 3 });
    expect(harness.slack.messages(DEMO.security)).toEqual([]);

    const caught = await until(
      async () => {
        const r = await http("/readyz");
        return r.status === 503 && r.body.worker === "stalled" && r;
      },
      30_000,
      "/readyz to report the stall",
      250,
    );
    const caughtSec = (Date.now() - enqueuedAt) / 1000;
    expect(caughtSec).toBeLessThan(30);
    expect(caught.body.redis).toBe("up");
    expect(await http("/livez")).toEqual({ status: 503, body: { ok: false, worker: "stalled" } });
    const stallLines = () => captured.lines.filter((l) => l.includes("has taken no job while jobs wait"));
    expect(stallLines()).toHaveLength(1);
    expect(w.worker).not.toBe(first);

    await admin.config("SET", "maxclients", "10000");
    const digests = () =>
      harness.slack.messages(DEMO.security).filter((m) => m.metadata?.event_type === DIGEST_EVENT_TYPE);
    await harness.slack.waitFor(() => digests().length === 3, {
      timeoutMs: 30_000,
      what: "the three digests once Redis takes connections",
    });
    await until(async () => (await http("/livez")).status === 200, 15_000, "/livez back to 200");
    expect((await http("/readyz")).status).toBe(200);
    expect(stallLines()).toHaveLength(1);
    console.info(`[stall] caught ${caughtSec.toFixed(1)} s after the jobs were queued`);
  });
});

describe("the stall judgement", () => {
  const look = (at: number, o: Partial<Parameters<typeof judge>[1]> = {}) => ({
    at,
    running: true,
    free: 2,
    waiting: 3,
    lastTakenAt: 0,
    ...o,
  });
  it("needs jobs waiting untaken for the whole time, a free slot and a running worker", () => {
    let s = judge(FRESH, look(1_000), 20_000);
    expect(s).toEqual({ waitingSince: 1_000, stalled: false });
    s = judge(s, look(20_999), 20_000);
    expect(s.stalled).toBe(false);
    s = judge(s, look(21_000), 20_000);
    expect(s).toEqual({ waitingSince: 1_000, stalled: true });
    // A job taken restarts the wait; so does a moment with nothing waiting, no free slot, or paused.
    expect(judge(s, look(22_000, { lastTakenAt: 21_500 }), 20_000)).toEqual({
      waitingSince: 22_000,
      stalled: false,
    });
    expect(judge(s, look(22_000, { waiting: 0 }), 20_000)).toEqual(FRESH);
    expect(judge(s, look(22_000, { free: 0 }), 20_000)).toEqual(FRESH);
    expect(judge(s, look(22_000, { running: false }), 20_000)).toEqual(FRESH);
    // Jobs waiting for long: a job taken before the wait began is no sign of life, one taken since is.
    expect(
      judge({ waitingSince: 1_000, stalled: false }, look(30_000, { lastTakenAt: 500 }), 20_000).stalled,
    ).toBe(true);
    expect(
      judge({ waitingSince: 1_000, stalled: false }, look(30_000, { lastTakenAt: 25_000 }), 20_000).stalled,
    ).toBe(false);
  });
});
