import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFetch } from "../../src/http-client.ts";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A server that records each request and answers by path. */
async function peer() {
  const seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string }[] = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === "/moved") {
        res.writeHead(307, { location: "/graphql" });
        res.end();
      } else if (req.url === "/silent") {
        // never answers
      } else {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "3" });
        res.end(JSON.stringify({ echo: body }));
      }
    });
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("nodeFetch", () => {
  it("answers what fetch answers: status, headers and body, for a POST with headers", async () => {
    const { base, seen } = await peer();
    const init = {
      method: "POST",
      headers: new Headers({ authorization: "ApiKey k", "content-type": "application/json" }),
      body: '{"q":"é"}',
    };
    const mine = await nodeFetch(`${base}/graphql`, init);
    const theirs = await fetch(`${base}/graphql`, init);
    for (const res of [mine, theirs]) {
      expect(res.status).toBe(429);
      expect(res.ok).toBe(false);
      expect(res.headers.get("retry-after")).toBe("3");
      expect(await res.json()).toEqual({ echo: '{"q":"é"}' });
    }
    expect(seen[0]).toMatchObject({ method: "POST", body: '{"q":"é"}' });
    expect(seen[0]?.headers).toMatchObject({ authorization: "ApiKey k", "content-length": "10" });
  });

  it("a redirect is followed the way fetch follows it", async () => {
    const { base, seen } = await peer();
    const res = await nodeFetch(`${base}/moved`, { method: "POST", body: "x" });
    expect(res.status).toBe(429);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ["POST", "/moved"],
      ["POST", "/moved"],
      ["POST", "/graphql"],
    ]);
  });

  it("fails as fetch fails: the signal's reason when aborted, TypeError with the cause when refused", async () => {
    const { base } = await peer();
    const controller = new AbortController();
    const pending = nodeFetch(`${base}/silent`, { method: "POST", body: "x", signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    const port = new URL(base).port;
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
    server = undefined;
    const refused = await nodeFetch(`http://127.0.0.1:${port}/graphql`, { method: "POST", body: "x" }).catch(
      (e: unknown) => e as TypeError & { cause: { code: string } },
    );
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as { cause: { code: string } }).cause.code).toBe("ECONNREFUSED");
  });
});
