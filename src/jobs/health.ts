import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isCluster, type RedisClient } from "../store/redis-client.ts";

/** A running probe server. */
export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/** Resolves false after `ms` if `check` has not answered (or failed) by then. */
function within(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref());
  return Promise.race([
    Promise.resolve()
      .then(check)
      .catch(() => false),
    timeout,
  ]);
}

/**
 * The worker's probe endpoints: `/healthz` (the process is up), `/livez` (503 `worker: "stalled"`
 * while it says it runs but takes no job while jobs wait) and `/readyz`, which answers like the web
 * process's: 200 `{ ok: true, redis: "up" }` when Redis answers PING within a second and the worker
 * takes jobs, else 503 with `redis: "down"`, `worker: "stopped"` or `worker: "stalled"` saying which.
 * A worker that is shutting down reports not ready, so an orchestrator stops routing to it while
 * in-flight jobs finish.
 */
/** A fail-fast copy of the connection, of the same kind (one server or a cluster). */
function probeOf(redis: RedisClient): RedisClient {
  if (isCluster(redis))
    return redis.duplicate(undefined, {
      enableOfflineQueue: false,
      redisOptions: { maxRetriesPerRequest: 0 },
    });
  return redis.duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 0 });
}

export async function startHealthServer(o: {
  port: number;
  host?: string;
  /** Whether the worker takes jobs (false once it is closing). */
  ready: () => boolean | Promise<boolean>;
  /** Whether it says it runs but takes no job while jobs wait (jobs/liveness.ts) [never]. */
  stalled?: () => boolean;
  /** The worker's Redis connection; /readyz pings a fail-fast copy of it (closed with the server). */
  redis: RedisClient;
  /** Serves `/metrics` (Prometheus) when given. */
  metrics?: (req: unknown, res: ServerResponse) => void;
  /** What /readyz reports besides readiness (Redis' maxmemory-policy). */
  report?: () => Record<string, unknown>;
  /** Why the worker must not take work although it runs (Redis' eviction policy changed); 503 naming it. */
  problem?: () => string | undefined;
}): Promise<HealthServer> {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  // Not the worker's own connection: that one keeps every command queued across reconnects (as
  // BullMQ needs), so each probe during an outage would pile up there. This copy fails at once.
  const probe = probeOf(o.redis);
  probe.on("error", () => undefined);
  // Probes that find it (re)connecting share one wait for "ready" rather than a listener each.
  let connecting: Promise<unknown> | undefined;
  const ping = async () => {
    if (probe.status !== "ready") {
      connecting ??= once(probe, "ready").finally(() => {
        connecting = undefined;
      });
      await connecting;
    }
    return (await probe.ping()) === "PONG";
  };
  const readiness = async () => {
    const [redisUp, running] = await Promise.all([within(ping, 1_000), within(o.ready, 1_000)]);
    const problem = o.problem?.();
    const stalled = o.stalled?.() ?? false;
    const ok = redisUp && running && !problem && !stalled;
    return {
      ok,
      redis: redisUp ? "up" : "down",
      ...(running ? (stalled ? { worker: "stalled" } : {}) : { worker: "stopped" }),
      ...(problem ? { problem } : {}),
      ...o.report?.(),
    };
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET") return json(res, 405, { ok: false });
    if (path === "/healthz") return json(res, 200, { ok: true });
    // Liveness: only a stall fails it (Redis away is readiness's to report; a restart cannot fix that).
    if (path === "/livez")
      return o.stalled?.() ? json(res, 503, { ok: false, worker: "stalled" }) : json(res, 200, { ok: true });
    if (path === "/metrics" && o.metrics) return o.metrics(req, res);
    if (path !== "/readyz") return json(res, 404, { ok: false });
    readiness().then((body) => json(res, body.ok ? 200 : 503, body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host ?? "0.0.0.0", () => resolve());
  }).catch((err: unknown) => {
    probe.disconnect();
    throw err;
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await probe.quit().catch(() => probe.disconnect());
    },
  };
}
