import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRespond } from "@slack/bolt/dist/context/create-respond.js";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { connectRedis, withCommandTimeout } from "../../src/app/redis.ts";
import { silentLogger } from "../../src/log.ts";
import { slackClientOptions } from "../../src/slack/app.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";

/** Outbound calls give up at their deadline instead of hanging on a peer that never answers. */
let redis: PrivateRedis | undefined;
let server: Server | undefined;
const clients: RedisClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await redis?.destroy();
  [redis, server] = [undefined, undefined];
});

/** An HTTP server that takes every request and never answers. */
async function silentPeer(): Promise<string> {
  const seen: unknown[] = [];
  server = createServer((req) => seen.push(req.url));
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const elapsed = async (p: Promise<unknown>) => {
  const t0 = Date.now();
  const error = await p.then(
    () => null,
    (e: unknown) => e as Error,
  );
  return { ms: Date.now() - t0, error };
};

describe("Slack calls of the Bolt app", () => {
  it("a Web API call that gets no answer fails after SLACK_TIMEOUT_MS per try, not never", async () => {
    const url = await silentPeer();
    const options = slackClientOptions({ apiUrl: `${url}api/`, timeoutMs: 1_000 });
    const client = new WebClient("xoxb-test", { ...options, retryConfig: { retries: 0 } });
    const { ms, error } = await elapsed(client.auth.test());
    expect(error).not.toBeNull();
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
  });

  it("respond() to a response_url that never answers fails after the deadline", async () => {
    const url = await silentPeer();
    const respond = createRespond(
      slackClientOptions({ apiUrl: url, timeoutMs: 1_000 }).fetch,
      `${url}hooks/1`,
    );
    const { ms, error } = await elapsed(respond({ text: "hi" }));
    expect(error?.name).toMatch(/TimeoutError|AbortError/);
    expect(ms).toBeLessThan(3_000);
  });
});

describe("the app's own Redis commands", () => {
  it("fail at REDIS_COMMAND_TIMEOUT_MS while Redis does not answer; BullMQ's worker connection waits", async () => {
    redis = await startPrivateRedis();
    const admin = connectRedis(redis.url, silentLogger());
    const worker = connectRedis(redis.url, silentLogger(), "worker");
    const client = connectRedis(redis.url, silentLogger(), "client", 300);
    const own = withCommandTimeout(worker, 300, silentLogger());
    clients.push(admin, worker, client, own);
    await Promise.all([admin.ping(), worker.ping(), client.ping(), own.ping()]);
    // Redis holds every client's commands for 3 s, as a server stuck in a slow script would. The
    // times are taken from the pause, not from each send: on a loaded machine the sends may lag it.
    const paused = Date.now();
    await admin.client("PAUSE", 3_000, "ALL");
    const since = async (p: Promise<unknown>) => {
      const { error } = await elapsed(p);
      return { error, at: Date.now() - paused };
    };
    const [c, o, w] = await Promise.all([
      since(client.get("k")),
      since(own.get("k")),
      since(worker.get("k")),
    ]);
    for (const r of [c, o]) {
      expect(r.error?.message).toMatch(/timed out/i);
      expect(r.at).toBeLessThan(2_500);
    }
    // Answered, once the pause was over.
    expect(w.error).toBeNull();
    expect(w.at).toBeGreaterThanOrEqual(2_900);
  });
});
