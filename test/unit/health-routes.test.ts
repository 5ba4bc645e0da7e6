import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { healthRoutes } from "../../src/slack/health.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";

/** Calls the /readyz route and resolves with the status and JSON body it wrote. */
function readyz(routes: ReturnType<typeof healthRoutes>): Promise<{ status: number; body: unknown }> {
  const route = routes.find((r) => r.path === "/readyz");
  if (!route) throw new Error("no /readyz route");
  return new Promise((resolve) => {
    let status = 0;
    const res = {
      writeHead(s: number) {
        status = s;
        return res;
      },
      end(text: string) {
        resolve({ status, body: JSON.parse(text) });
      },
    };
    void route.handler({} as IncomingMessage, res as unknown as ServerResponse);
  });
}

const up = { ping: async () => "PONG" } as unknown as RedisClient;
const down = { ping: () => Promise.reject(new Error("connection refused")) } as unknown as RedisClient;

describe("/readyz", () => {
  it("answers 200 when Redis answers and nothing is still starting, with the root's report", async () => {
    const r = await readyz(
      healthRoutes(
        up,
        [],
        () => ({ maxmemoryPolicy: "noeviction" }),
        () => undefined,
      ),
    );
    expect(r).toEqual({ status: 200, body: { ok: true, redis: "up", maxmemoryPolicy: "noeviction" } });
  });

  it("answers 503 naming what the process still waits for, while Redis is up", async () => {
    let waiting: string | undefined = "digest threads starting";
    const routes = healthRoutes(
      up,
      [],
      () => ({}),
      () => waiting,
    );
    expect(await readyz(routes)).toEqual({
      status: 503,
      body: { ok: false, redis: "up", waiting: "digest threads starting" },
    });
    waiting = undefined;
    expect(await readyz(routes)).toEqual({ status: 200, body: { ok: true, redis: "up" } });
  });

  it("answers 503 when Redis does not answer", async () => {
    expect(await readyz(healthRoutes(down))).toEqual({ status: 503, body: { ok: false, redis: "down" } });
  });
});
