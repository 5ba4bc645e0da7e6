import type { CustomRoute } from "@slack/bolt";
import type { RedisClient } from "../store/redis-client.ts";

/**
 * Extra HTTP routes: liveness, readiness (Redis answers and nothing the process needs is still
 * starting; `report` adds what the root knows, such as Redis' maxmemory-policy), and whatever the
 * root adds (metrics). `waitingFor` names what the process still waits for before it can serve (a
 * single process's digest threads loading), undefined once nothing; `problem` why it must not serve
 * although it runs (Redis' eviction policy changed under it), undefined when nothing is wrong.
 */
export function healthRoutes(
  redis: RedisClient,
  extra: CustomRoute[] = [],
  report: () => Record<string, unknown> = () => ({}),
  waitingFor: () => string | undefined = () => undefined,
  problem: () => string | undefined = () => undefined,
): CustomRoute[] {
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  return [
    { path: "/healthz", method: ["GET"], handler: (_req, res) => json(res, 200, { ok: true }) },
    {
      path: "/readyz",
      method: ["GET"],
      handler: (_req, res) => {
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("timeout")), 1000).unref(),
        );
        Promise.race([redis.ping(), timeout]).then(
          () => {
            const waiting = waitingFor();
            const wrong = problem();
            if (waiting) json(res, 503, { ok: false, redis: "up", waiting, ...report() });
            else if (wrong) json(res, 503, { ok: false, redis: "up", problem: wrong, ...report() });
            else json(res, 200, { ok: true, redis: "up", ...report() });
          },
          () => json(res, 503, { ok: false, redis: "down", ...report() }),
        );
      },
    },
    ...extra,
  ];
}
