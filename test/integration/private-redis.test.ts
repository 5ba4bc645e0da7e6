import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("a server that takes the port but never answers PING is given up on and killed, not left running", async () => {
    // A stand-in redis-server first on PATH: it says its version, then listens on the port it is given
    // and never answers (a starved or wedged server), so each probe connects and waits.
    const dir = mkdtempSync(join(tmpdir(), "fake-redis-"));
    const pidFile = join(dir, "pid");
    const fake = join(dir, "redis-server");
    writeFileSync(
      fake,
      `#!/bin/sh
if [ "$1" = "--version" ]; then echo "Redis server v=0.0.0 (stand-in)"; exit 0; fi
echo $$ > "${pidFile}"
exec "${process.execPath}" -e 'require("node:net").createServer(() => {}).listen(Number(process.argv[1]), "127.0.0.1")' "$2"
`,
    );
    chmodSync(fake, 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${dir}:${path}`;
    try {
      await expect(startPrivateRedis({ readyMs: 1_500 })).rejects.toThrow(
        /did not answer on port \d+ within 1500 ms/,
      );
    } finally {
      process.env.PATH = path;
    }
    const pid = Number(readFileSync(pidFile, "utf8"));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const until = Date.now() + 5_000;
    while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
