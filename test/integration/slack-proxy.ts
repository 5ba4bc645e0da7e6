import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A pass-through in front of the Slack stand-in, for faults the stand-in does not model per caller:
 * a 429 for one workspace's token only, or a reply held back after Slack already acted on the call
 * (the post is in the channel, the worker has not heard yet: kill it now and it never records it).
 */
export type ProxyVerdict =
  | "pass"
  | { status: 429; retryAfter: number }
  // Slack acts on the call and the answer never comes back (until the proxy closes).
  | "hold"
  // The call never reaches Slack (so it uses none of Slack's budget) and is never answered.
  | "drop";

export interface SlackProxy {
  /** Give this to the worker instead of the stand-in's. */
  apiUrl: string;
  /** Decides per call; replaced at will by the test. */
  rule: (method: string, token: string) => ProxyVerdict;
  close(): Promise<void>;
}

const body = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

export async function startSlackProxy(targetApiUrl: string): Promise<SlackProxy> {
  const proxy: SlackProxy = { apiUrl: "", rule: () => "pass", close: async () => undefined };
  const server = createServer(async (req, res) => {
    const method = (req.url ?? "").replace(/^\/api\//, "").split("?")[0] ?? "";
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const raw = await body(req);
    const verdict = proxy.rule(method, token);
    if (typeof verdict === "object") {
      res.writeHead(429, { "retry-after": String(verdict.retryAfter), "content-type": "application/json" });
      res.end(JSON.stringify({ ok: false, error: "ratelimited" }));
      return;
    }
    if (verdict === "drop") return;
    try {
      const upstream = await fetch(`${targetApiUrl}${method}`, {
        method: "POST",
        headers: {
          authorization: req.headers.authorization ?? "",
          "content-type": req.headers["content-type"] ?? "application/x-www-form-urlencoded",
        },
        body: raw,
      });
      const text = await upstream.text();
      if (verdict === "hold") return;
      const headers: Record<string, string> = { "content-type": "application/json" };
      const retry = upstream.headers.get("retry-after");
      if (retry) headers["retry-after"] = retry;
      res.writeHead(upstream.status, headers);
      res.end(text);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  proxy.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
