import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startPrivateRedis } from "../../sandbox/redis.ts";

/** redis-server processes serving `port` (pgrep prints "PID redis-server 127.0.0.1:PORT"). */
function serversOn(port: number): string[] {
  let out = "";
  try {
    out = execFileSync("pgrep", ["-a", "redis-server"], { encoding: "utf8" });
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
  return out.split("\n").filter((l) => l.includes(`:${port}`));
}

describe("the private redis-server of tests and the demo", () => {
  it("restart while it runs starts no second server, and destroy leaves none behind", async () => {
    const r = await startPrivateRedis();
    expect(serversOn(r.port)).toHaveLength(1);
    await r.restart();
    expect(serversOn(r.port)).toHaveLength(1);
    await r.destroy();
    expect(serversOn(r.port)).toEqual([]);
    expect(existsSync(r.dir)).toBe(false);
  });

  it("after a crash (SIGKILL) and a restart, destroy still stops the one that runs", async () => {
    const r = await startPrivateRedis();
    await r.stop("SIGKILL");
    expect(serversOn(r.port)).toEqual([]);
    await r.restart();
    await r.restart();
    expect(serversOn(r.port)).toHaveLength(1);
    await r.destroy();
    expect(serversOn(r.port)).toEqual([]);
  });
});
