import { createConnection, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { type PrivateRedisSentinel, startPrivateRedisSentinel } from "../../sandbox/redis-sentinel.ts";
import { DEMO, DEMO_API_KEY, type Stack, startStack } from "../../sandbox/stack.ts";
import { connectRedis } from "../../src/app/redis.ts";
import { ACTION } from "../../src/ids.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { JOB_NAME } from "../../src/jobs/queue.ts";
import { createSubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { silentLogger } from "../../src/log.ts";
import { BUSY_TEXT } from "../../src/slack/frame/index.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import type { WorkspaceRef } from "../../src/store/keys.ts";
import { newSubscriptionId } from "../../src/subscriptions/ids.ts";
import { storedSubscription } from "../fixtures/subscription.ts";

/**
 * Redis with Sentinel, as production high availability runs it: a primary, a replica and three
 * sentinels, all plain redis-server processes. The app (web and worker) connects through the
 * sentinels; the primary is SIGKILLed in the middle of a storm of scheduled digests and slash
 * commands, the sentinels promote the replica, and the app finds it on its own.
 */

let sentinel: PrivateRedisSentinel | undefined;
let stack: Stack | undefined;
let closeRuntime: (() => Promise<void>) | undefined;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await closeRuntime?.();
  await stack?.close();
  await sentinel?.destroy();
  closeRuntime = undefined;
  stack = undefined;
  sentinel = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Redis failover (Sentinel)", () => {
  it("primary SIGKILLed mid-storm: the replica is promoted, no digest is lost or posted twice, every command is answered", {
    timeout: 240_000,
  }, async () => {
    sentinel = await startPrivateRedisSentinel({ downAfterMs: 1_000 });
    const prefix = `fo-${process.pid}`;
    const tokens = new Map<string, string>([[DEMO.teamId, DEMO.botToken]]);
    stack = await startStack({
      redisUrl: sentinel.url,
      prefix,
      interactive: "queue",
      env: { CHARTS: "off", WORKER_CONCURRENCY: "8" },
      worker: {
        tokenFor: async (ref) => tokens.get(ref.teamId ?? "") ?? DEMO.botToken,
        interactive: { queueName: `interactive-${prefix}` },
        // Retries a second apart, so a delivery that failed during the outage goes again soon after.
        policy: { attempts: 5, backoffMs: 1_000 },
      },
    });
    const app = stack;
    const keyring = app.config.keyring ?? [];
    const apiKeys = createApiKeyStore({ redis: app.redis, keyring, prefix });
    const meta = () => ({ savedBy: DEMO.admin, savedAt: new Date().toISOString() });
    await apiKeys.save({ teamId: DEMO.teamId }, DEMO_API_KEY, meta());
    const runtime = createSubscriptionRuntime({
      redis: app.redis,
      queuePrefix: app.config.queuePrefix,
      logger: silentLogger(),
      prefix,
      queueName: app.queueName,
    });
    closeRuntime = () => runtime.close();

    // The storm's scheduled side: 20 workspaces with 10 subscribed channels each, all due at once.
    const subs: { ref: WorkspaceRef; id: string; channel: string }[] = [];
    for (let w = 0; w < 20; w++) {
      const teamId = `T0FO${String(w).padStart(5, "0")}`;
      const token = `xoxb-${teamId.toLowerCase()}-standin`;
      const channels = Array.from({ length: 10 }, (_, c) => `C${teamId.slice(1)}X${c}`);
      app.slack.addWorkspace({
        teamId,
        name: teamId,
        botToken: token,
        users: [{ id: `U${teamId.slice(1)}A`, name: "admin", isAdmin: true }],
        channels: channels.map((id, i) => ({ id, name: `digests-${i}` })),
      });
      tokens.set(teamId, token);
      const ref = { teamId };
      await apiKeys.save(ref, DEMO_API_KEY, meta());
      for (const channelId of channels) {
        const sub = storedSubscription({
          id: newSubscriptionId(),
          ref,
          ownerId: `U${teamId.slice(1)}A`,
          channelId,
          schedule: { kind: "daily" },
          drivers: false,
        });
        await runtime.store.insert(sub);
        subs.push({ ref, id: sub.id, channel: channelId });
      }
    }
    const n = subs.length;
    const period = "20261102T090000Z";
    const digests = (channel: string) =>
      app.slack.messages(channel).filter((m) => m.metadata?.event_type === DIGEST_EVENT_TYPE);
    const delivered = () => subs.filter((s) => digests(s.channel).length > 0).length;
    await runtime.queue.addBulk(
      subs.map((s) => ({
        name: JOB_NAME.catchUp,
        data: { sub: `-.${s.ref.teamId}.${s.id}`, period, ch: s.channel },
        opts: { jobId: `fo.${s.id}`, attempts: 5, backoff: { type: "exponential", delay: 1_000 } },
      })),
    );

    // The interactive side: a slash command every 200 ms from before the kill until after the promotion.
    const commands: Promise<{ status: number; ackMs: number; url: string | undefined }>[] = [];
    let typing = true;
    const typist = (async () => {
      for (let i = 0; typing; i++) {
        commands.push(
          app.slack
            .sendCommand({
              teamId: DEMO.teamId,
              userId: i % 2 ? DEMO.member : DEMO.admin,
              channelId: DEMO.general,
              text: `last${7 + (i % 20)}d`,
            })
            .then((r) => ({ status: r.status, ackMs: r.ackMs, url: r.responseUrl })),
        );
        await sleep(200);
      }
    })();

    await app.slack.waitFor(() => delivered() >= n / 3, { timeoutMs: 60_000, what: "a third delivered" });
    const before = delivered();
    const oldPrimary = sentinel.primaryPort();
    const killedAt = Date.now();
    await sentinel.killServer(oldPrimary, "SIGKILL");
    const newPrimary = await sentinel.waitForPromotion(oldPrimary);
    const promotedAt = Date.now();
    // Commands keep coming for a few seconds on the new primary too.
    await sleep(3_000);
    typing = false;
    await typist;

    await app.slack
      .waitFor(() => delivered() === n, { timeoutMs: 120_000, what: "every digest delivered" })
      .catch(async (err) => {
        const missing: string[] = [];
        for (const s of subs.filter((x) => digests(x.channel).length === 0).slice(0, 10)) {
          const job = await runtime.queue.getJob(`fo.${s.id}`);
          const last = (await runtime.store.get(s.ref, s.id))?.lastDelivery;
          missing.push(
            `${s.id}: ${job ? `${await job.getState()}, ${job.attemptsMade} attempts, ${job.stalledCounter} stalls ${job.failedReason ?? ""}` : "no job"}; record ${JSON.stringify(last ?? null)}`,
          );
        }
        throw new Error(`${(err as Error).message}: ${delivered()} of ${n}; ${missing.join("; ")}`);
      });
    const sent = await Promise.all(commands);
    // While Redis fails over, requests can wait past the busy bound: those get the busy note in their
    // ack (recorded as a response), and their answer replaces it. The answers are what follows it.
    const isNote = (r: { outcome?: string; body?: unknown }) =>
      r.outcome === "ack" && JSON.stringify(r.body ?? "").includes(BUSY_TEXT);
    const answersOf = (url: string | undefined) =>
      url ? app.slack.responses(url).filter((r) => !isNote(r)) : [];
    await app.slack.waitFor(() => sent.every((c) => c.url && answersOf(c.url).length > 0), {
      timeoutMs: 60_000,
      what: "every command answered",
    });
    // Room for any second post (a duplicate) to show up.
    await sleep(2_000);

    const counts = subs.map((s) => digests(s.channel).length);
    const lost = counts.filter((c) => c === 0).length;
    const duplicates = counts.reduce((t, c) => t + Math.max(0, c - 1), 0);
    const posts = app.slack.calls({ method: "chat.postMessage", ok: true });
    // A post already on its way when Redis died may land after the kill: recovery is the first one
    // after the promotion, which needed the new primary (its claim, its record).
    const firstAfter = posts.find((c) => c.at > promotedAt);
    const takenOver = app.logLines.filter((l) => l.includes("already posted by a worker that died")).length;
    const answers = sent.map((c) => answersOf(c.url)[0]);
    const notes = sent.filter((c) => c.url && app.slack.responses(c.url).some(isNote)).length;
    const isDigest = (r: (typeof answers)[number]) =>
      JSON.stringify(r?.body?.blocks ?? []).includes(ACTION.share);
    const digestAnswers = answers.filter(isDigest).length;
    const errors = [...new Set(answers.filter((r) => !isDigest(r)).map((r) => String(r?.body?.text ?? "")))];
    console.info(
      `[failover] ${n} scheduled digests (${before} out before the kill), ${sent.length} commands: ${lost} lost, ${duplicates} duplicated, ${takenOver} taken over after the kill; replica promoted ${((promotedAt - killedAt) / 1000).toFixed(1)} s and first delivery after it ${firstAfter ? ((firstAfter.at - killedAt) / 1000).toFixed(1) : "-"} s after the kill; ${digestAnswers} commands answered with a digest, ${sent.length - digestAnswers} with an error (${errors.join(" | ")}), ${notes} told "busy" first, slowest ack ${Math.round(Math.max(...sent.map((c) => c.ackMs)))} ms`,
    );

    expect(newPrimary).not.toBe(oldPrimary);
    expect({ lost, duplicates }).toEqual({ lost: 0, duplicates: 0 });
    for (const s of subs)
      expect((await runtime.store.get(s.ref, s.id))?.lastDelivery).toMatchObject({
        period,
        outcome: "delivered",
        messageTs: digests(s.channel)[0]?.ts,
      });
    expect(firstAfter).toBeDefined();
    // Every command was acked in time and answered exactly once, after at most one busy note.
    expect(sent.filter((c) => c.status !== 200)).toEqual([]);
    expect(sent.map((c) => answersOf(c.url).length)).toEqual(sent.map(() => 1));
    expect(sent.map((c) => (c.url ? app.slack.responses(c.url) : []).filter(isNote).length <= 1)).toEqual(
      sent.map(() => true),
    );
  });
});

/** A name that moves: a TCP relay whose new connections go wherever `target` says now. */
async function movingName(target: { port: number }): Promise<{ port: number; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(target.port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  server.on("close", () => {
    for (const s of sockets) s.destroy();
  });
  return { port: (server.address() as { port: number }).port, server };
}

describe("a primary behind a name that moves (DNS failover)", () => {
  it("the old primary, now a replica, answers READONLY: the client reconnects to the new one and the write goes through", async () => {
    const a: PrivateRedis = await startPrivateRedis();
    const b: PrivateRedis = await startPrivateRedis();
    cleanups.push(
      () => a.destroy(),
      () => b.destroy(),
    );
    const admin = (r: PrivateRedis) => connectRedis(r.url, silentLogger());
    const [adminA, adminB] = [admin(a), admin(b)];
    cleanups.push(
      () => adminA.quit(),
      () => adminB.quit(),
    );
    await adminB.replicaof("127.0.0.1", a.port);
    const target = { port: a.port };
    const name = await movingName(target);
    cleanups.push(() => new Promise((r) => name.server.close(r)));
    // A worker connection, as BullMQ's: commands wait through reconnects.
    const app = connectRedis(`redis://127.0.0.1:${name.port}`, silentLogger(), "worker");
    cleanups.push(() => app.quit());
    await app.set("failover:k", "before");
    // B has it once the initial sync is done.
    for (let i = 0; i < 200 && (await adminB.get("failover:k")) !== "before"; i++) await sleep(50);
    expect(await adminB.get("failover:k")).toBe("before");

    // The failover: B promoted, A demoted to its replica, the name now pointing at B. The app's
    // connection still reaches A, which takes reads but refuses writes.
    await adminB.replicaof("NO", "ONE");
    await adminA.replicaof("127.0.0.1", b.port);
    target.port = b.port;

    await app.set("failover:k", "after");
    expect(await adminB.get("failover:k")).toBe("after");
    expect(/tcp_port:(\d+)/.exec(await app.info("server"))?.[1]).toBe(String(b.port));
  });
});
