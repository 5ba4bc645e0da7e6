import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort, PICK_FROM, pickRangeOf } from "../../sandbox/redis.ts";

/** Ports of the test sandbox's servers: chosen where no connection's local port can take them. */

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(port, "127.0.0.1", () => resolve(srv));
  });
const close = (srv: Server) => new Promise<void>((r) => srv.close(() => r()));
// Read here as well, not taken from the sandbox: the test checks the sandbox's reading of it.
const ephemeralLow = Number(
  readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
);

describe("freePort", () => {
  it("picks below the kernel's ephemeral range, a port a server can then listen on", async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      // Where the kernel's range leaves no room below it, the kernel chooses (documented on freePort).
      if (ephemeralLow - PICK_FROM >= 1_000) {
        expect(pickRangeOf()).toEqual({ from: PICK_FROM, to: ephemeralLow });
        expect(port).toBeGreaterThanOrEqual(PICK_FROM);
        expect(port).toBeLessThan(ephemeralLow);
      }
      await close(await listen(port));
    }
  });

  it("passes over a port something already listens on", async () => {
    const busy = await listen(await freePort());
    const busyPort = (busy.address() as { port: number }).port;
    try {
      // The first two picks land on the port in use; the third is a fresh one.
      let n = 0;
      const got = await freePort({
        pick: (from, to) => (n++ < 2 ? busyPort : from + Math.floor(Math.random() * (to - from))),
      });
      expect(n).toBeGreaterThanOrEqual(3);
      expect(got).not.toBe(busyPort);
      await close(await listen(got));
    } finally {
      await close(busy);
    }
  });
});
