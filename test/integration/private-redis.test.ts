import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, RedisExitedEarly, redisPidOn, startPrivateRedis, waitReady } from "../../sandbox/redis.ts";
import { startPrivateRedisCluster } from "../../sandbox/redis-cluster.ts";
import { startPrivateRedisSentinel } from "../../sandbox/redis-sentinel.ts";

/**
 * The redis-servers listening on `port` that this process started (every server here is its child;
 * pgrep prints "PID redis-server 127.0.0.1:PORT").
 * Other test files run beside this one and start servers of their own on free ports, which may be a
 * port this file's server left a moment before: a check of what this file left behind counts its own.
 */
function serversOn(port: number): string[] {
  let out = "";
  try {
    out = execFileSync("pgrep", ["-a", "-P", String(process.pid), "redis-server"], { encoding: "utf8" });
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

  it("a server started on a port another Redis took meanwhile is not taken for ready (the answer names its pid)", async () => {
    // What happens when two private servers are started at once and are handed the same free port:
    // the second cannot bind and exits, while the first answers PING on that port.
    const first = await startPrivateRedis();
    try {
      expect(await redisPidOn(first.port)).toBeGreaterThan(0);
      const dir = mkdtempSync(join(tmpdir(), "second-redis-"));
      const second = spawn(
        "redis-server",
        ["--port", String(first.port), "--bind", "127.0.0.1", "--dir", dir],
        {
          stdio: "ignore",
        },
      );
      await expect(waitReady(first.port, second, 10_000)).rejects.toBeInstanceOf(RedisExitedEarly);
      rmSync(dir, { recursive: true, force: true });
      // Nothing Redis on a port: no pid.
      const gone = await startPrivateRedis();
      await gone.destroy();
      expect(await redisPidOn(gone.port)).toBeNull();
    } finally {
      await first.destroy();
    }
  });

  it("a sentinel set one of whose ports another Redis took starts again on free ports, leaving nothing of its first try", async () => {
    const taken = await startPrivateRedis();
    const before = await redisPidOn(taken.port);
    const mine: number[] = [];
    while (mine.length < 4) {
      const p = await freePort();
      if (p !== taken.port && !mine.includes(p)) mine.push(p);
    }
    try {
      // Primary, replica and two sentinels start on their ports; the third sentinel's is taken.
      const set = await startPrivateRedisSentinel({ firstPorts: [...mine, taken.port] });
      try {
        expect([...set.serverPorts, ...set.sentinelPorts]).not.toContain(taken.port);
        expect(set.serverPorts).toContain(set.primaryPort());
        // The first try's servers were stopped, and the Redis that held the port is untouched.
        for (const p of mine)
          if (![...set.serverPorts, ...set.sentinelPorts].includes(p)) expect(serversOn(p)).toEqual([]);
        expect(await redisPidOn(taken.port)).toBe(before);
      } finally {
        await set.destroy();
      }
    } finally {
      await taken.destroy();
    }
  });

  it("a cluster that cannot be formed leaves no node running", async () => {
    // redis-cli that notes the nodes it is asked to join and refuses, first on PATH; redis-server is the real one.
    const dir = mkdtempSync(join(tmpdir(), "fake-redis-cli-"));
    const asked = join(dir, "asked");
    const real = execFileSync("sh", ["-c", "command -v redis-cli"], { encoding: "utf8" }).trim();
    writeFileSync(
      join(dir, "redis-cli"),
      `#!/bin/sh
if [ "$1" = "--cluster" ]; then echo "$@" > "${asked}"; echo "[ERR] refused (stand-in)"; exit 1; fi
exec "${real}" "$@"
`,
    );
    chmodSync(join(dir, "redis-cli"), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${dir}:${path}`;
    try {
      await expect(startPrivateRedisCluster(3)).rejects.toThrow(/cluster create failed: \[ERR\] refused/);
      const ports = [...readFileSync(asked, "utf8").matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
      expect(ports).toHaveLength(3);
      for (const port of ports) expect(serversOn(port)).toEqual([]);
    } finally {
      process.env.PATH = path;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
