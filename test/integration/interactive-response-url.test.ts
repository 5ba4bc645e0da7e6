import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RESPONSE_URL_TTL_MS, responseUrlPoster } from "../../src/interactive/response-url.ts";

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A response_url endpoint that answers each post with the next of `answers` (then 200). */
async function endpoint(answers: { status: number; body: string }[] = []) {
  const bodies: unknown[] = [];
  const connections = { count: 0 };
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => {
      raw += c.toString();
    });
    req.on("end", () => {
      bodies.push(JSON.parse(raw));
      const a = answers.shift() ?? { status: 200, body: '{"ok":true}' };
      res.writeHead(a.status, { "content-type": "application/json" });
      res.end(a.body);
    });
  });
  server.on("connection", () => connections.count++);
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/r/1`, bodies, connections };
}

describe("response_url poster", () => {
  it("posts JSON and counts uses; the fifth is the last, a sixth is refused without a request", async () => {
    const { url, bodies, connections } = await endpoint();
    const poster = responseUrlPoster({ url, receivedAt: Date.now(), used: 1 });
    for (let i = 0; i < 4; i++) await poster.post({ text: `n${i}` });
    expect(poster.used).toBe(5);
    await expect(poster.post({ text: "sixth" })).rejects.toMatchObject({ code: "response_url_gone" });
    expect(bodies).toEqual([{ text: "n0" }, { text: "n1" }, { text: "n2" }, { text: "n3" }]);
    // One kept-alive connection carried the posts, one after the other.
    expect(connections.count).toBe(1);
  });

  it("a url that never answers fails with post_timeout; one nobody listens on with post_failed", async () => {
    server = createServer(() => undefined);
    await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const silent = responseUrlPoster({
      url: `http://127.0.0.1:${port}/r/2`,
      receivedAt: Date.now(),
      used: 0,
      timeoutMs: 200,
    });
    await expect(silent.post({ text: "x" })).rejects.toMatchObject({ code: "post_timeout" });
    expect(silent.used).toBe(0);
    server.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
    server = undefined;
    const closed = responseUrlPoster({
      url: `http://127.0.0.1:${port}/r/3`,
      receivedAt: Date.now(),
      used: 0,
    });
    const err = await closed.post({ text: "y" }).then(
      () => null,
      (e: unknown) => e as { code: string; details: { reason: string }; message: string },
    );
    expect(err).toMatchObject({ code: "post_failed", details: { reason: "ECONNREFUSED" } });
    // The url is a credential: no error names it.
    expect(err?.message).not.toContain("/r/3");
  });

  it("past thirty minutes from the request the url is not tried", async () => {
    const { url, bodies } = await endpoint();
    const receivedAt = Date.now() - RESPONSE_URL_TTL_MS;
    const poster = responseUrlPoster({ url, receivedAt, used: 0 });
    await expect(poster.post({ text: "late" })).rejects.toMatchObject({ code: "response_url_gone" });
    expect(bodies).toEqual([]);
  });

  it("Slack's used_url / expired_url answers mean gone; other refusals carry Slack's code", async () => {
    const { url } = await endpoint([
      { status: 404, body: '{"ok":false,"error":"used_url"}' },
      { status: 400, body: '{"ok":false,"error":"invalid_blocks"}' },
    ]);
    const first = responseUrlPoster({ url, receivedAt: Date.now(), used: 0 });
    await expect(first.post({ text: "a" })).rejects.toMatchObject({ code: "response_url_gone" });
    await expect(first.post({ text: "b" })).rejects.toMatchObject({ code: "response_url_gone" });
    const second = responseUrlPoster({ url, receivedAt: Date.now(), used: 0 });
    await expect(second.post({ text: "c" })).rejects.toMatchObject({
      code: "response_url_failed",
      details: { status: 400, slackError: "invalid_blocks" },
    });
  });
});
