import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A running probe server. */
export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker's probe endpoints: `/healthz` (the process is up) and `/readyz` (it takes jobs and
 * Redis answers within a second). A worker that is shutting down reports not ready, so an
 * orchestrator stops routing to it while in-flight jobs finish.
 */
export async function startHealthServer(o: {
  port: number;
  host?: string;
  ready: () => Promise<boolean>;
  /** Serves `/metrics` (Prometheus) when given. */
  metrics?: (req: unknown, res: ServerResponse) => void;
}): Promise<HealthServer> {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET") return json(res, 405, { ok: false });
    if (path === "/healthz") return json(res, 200, { ok: true });
    if (path === "/metrics" && o.metrics) return o.metrics(req, res);
    if (path !== "/readyz") return json(res, 404, { ok: false });
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000).unref());
    Promise.race([o.ready().catch(() => false), timeout]).then((ok) => json(res, ok ? 200 : 503, { ok }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host ?? "0.0.0.0", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
