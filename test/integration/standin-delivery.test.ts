import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { deliver } from "../../sandbox/slack/client/http.ts";

/**
 * The stand-in's deliveries to the app, each on a connection of its own: a kept-alive idle
 * connection races the app's server closing it at its keep-alive timeout, and a delivery sent on it
 * as both timers fire (an event loop that stalled past them, as on a loaded machine) is reset
 * without the app ever seeing it, a failure that is the test client's and not the app's.
 */
const connections: string[] = [];
const server = createServer((req, res) => {
  connections.push(`${req.socket.remotePort} ${req.headers.connection ?? ""}`);
  res.end("ok");
});
server.keepAliveTimeout = 5_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("stand-in deliveries", () => {
  it("open a connection each and ask the app to close it after answering", async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    for (let i = 0; i < 3; i++) {
      const r = await deliver({ url, secret: "s", body: "a=1", contentType: "text/plain", options: {} });
      expect(r).toMatchObject({ status: 200, text: "ok", error: undefined });
    }
    expect(connections).toHaveLength(3);
    expect(new Set(connections.map((c) => c.split(" ")[0])).size).toBe(3);
    for (const c of connections) expect(c.split(" ")[1]).toBe("close");
  });
});
