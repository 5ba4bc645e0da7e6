import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { command, connect, startTestStack } from "./helpers.ts";

let redis: PrivateRedis;
let stack: Stack;

beforeAll(async () => {
  // A Redis of its own: this test stops it.
  redis = await startPrivateRedis();
  stack = await startTestStack({ redisUrl: redis.url, prefix: "health" });
});
afterAll(async () => {
  await redis.restart().catch(() => undefined);
  await stack?.close();
  await redis?.destroy();
});

describe("metrics", () => {
  it("/metrics counts commands by outcome and times analytics calls, with no ids in labels", async () => {
    await connect(stack);
    await command(stack, "last7d");
    await command(stack, "lst7d");
    // A digest runs off the acking loop; its count arrives when the run reports back, which can
    // be a moment after the reply is visible in Slack.
    const scrape = async () => {
      const res = await fetch(`${stack.web.url}/metrics`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const text = await stack.slack.waitFor(
      async () => {
        const t = await scrape();
        return t.includes('insights_commands_total{kind="digest",outcome="ok"}') ? t : undefined;
      },
      { timeoutMs: 5_000, what: "the digest command counted on /metrics" },
    );
    expect(text).toContain('insights_commands_total{kind="digest",outcome="ok"} 1');
    expect(text).toContain('insights_commands_total{kind="invalid",outcome="unknown_command"} 1');
    expect(text).toMatch(
      /insights_analytics_request_seconds_count\{operation="insights",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(/insights_queue_jobs\{state="waiting"\} \d+/);
    expect(text).not.toContain(DEMO.teamId);
    expect(text).not.toContain(DEMO.member);
  });
});

describe("the operators' page", () => {
  it("is absent without OPS_TOKEN: /ops and its paths are 404, even with a bearer token", async () => {
    for (const path of ["/ops", "/ops/login", "/ops/status.json", `/ops/workspace/-.${DEMO.teamId}`]) {
      const res = await fetch(`${stack.web.url}${path}`, { headers: { authorization: "Bearer anything" } });
      expect(res.status, path).toBe(404);
    }
  });
});

describe("health routes", () => {
  it("/healthz answers while the process is up; /readyz follows Redis", async () => {
    expect((await fetch(`${stack.web.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${stack.web.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, redis: "up", maxmemoryPolicy: "noeviction" });
    await redis.stop("SIGKILL");
    const down = await fetch(`${stack.web.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ ok: false, redis: "down" });
    expect((await fetch(`${stack.web.url}/healthz`)).status).toBe(200);
    await redis.restart();
    await stack.redis.ping().catch(() => undefined);
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${stack.web.url}/readyz`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});

describe("kept-alive connections", () => {
  it("stay open past Node's default 5 s, so a proxy reusing one is never reset mid-request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; port: number }>((resolve, reject) => {
        const req = request(`${stack.web.url}/healthz`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, port: req.socket?.localPort ?? -1 }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      const first = await get();
      // Longer than Node's default keep-alive timeout: a server still on it has closed the socket by now.
      await new Promise((r) => setTimeout(r, 6_000));
      const second = await get();
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.port).toBe(first.port);
    } finally {
      agent.destroy();
    }
  }, 15_000);
});
