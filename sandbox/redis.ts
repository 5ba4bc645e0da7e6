import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../src/errors.ts";

/** A private redis-server on a free loopback port, in its own temp dir, with AOF on. */
export interface PrivateRedis {
  url: string;
  port: number;
  dir: string;
  /** Stops the server (SIGTERM, or SIGKILL to simulate a crash). The data dir is kept for restart. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and dir, so AOF is replayed; a no-op while it runs. */
  restart(): Promise<void>;
  /** Stops it and removes its data dir. */
  destroy(): Promise<void>;
}

/** Whether a server could listen on `port` of the loopback address just now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** The port the kernel gives a listen on port 0. */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The first port of the kernel's ephemeral range (Linux), or null where it cannot be read. */
function readEphemeralLow(): number | null {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : null;
  } catch {
    return null;
  }
}

/** Where random picks start; below it, well-known and registered services are more common. */
export const PICK_FROM = 20_000;

let pickRange: { from: number; to: number } | null | undefined;
/**
 * The range freePort picks from (read once: the kernel's setting does not change under a test run),
 * or null where the kernel chooses: its range cannot be read or leaves under 1,000 ports below it.
 */
export function pickRangeOf(): { from: number; to: number } | null {
  if (pickRange === undefined) {
    const to = readEphemeralLow();
    pickRange = to === null || to - PICK_FROM < 1_000 ? null : { from: PICK_FROM, to };
  }
  return pickRange;
}

/**
 * A port free a moment ago, for a server about to start on it. Picked at random below the kernel's
 * ephemeral range, not by listening on port 0: a port the kernel hands out there may be handed out
 * again at once, to another process's port-0 listen or as the local port of any outgoing
 * connection, before our server starts (the tests run hundreds of servers and thousands of
 * connections side by side, and a sentinel set starts its servers seconds after choosing their
 * ports). Below that range only another random pick can meet it. Where the range cannot be read or
 * leaves no room below it, the kernel chooses. `pick` is for tests.
 */
export async function freePort(o: { pick?: (from: number, to: number) => number } = {}): Promise<number> {
  const range = pickRangeOf();
  if (!range) return kernelPort();
  const { from, to } = range;
  const pick = o.pick ?? (() => from + Math.floor(Math.random() * (to - from)));
  for (let tries = 0; tries < 50; tries++) {
    const port = pick(from, to);
    if (port >= from && port < to && (await canListen(port))) return port;
  }
  return kernelPort();
}

export function redisServerAvailable(): boolean {
  const r = spawnSync("redis-server", ["--version"], { stdio: "ignore" });
  return r.status === 0;
}

/** How to install redis-server, said the same way wherever it is missing. */
export const REDIS_INSTALL_HINT =
  "Debian/Ubuntu: `sudo apt-get install -y redis-server`, macOS: `brew install redis`";

/** For the demo, which uses REDIS_URL instead of a private server when it is set. */
export const REDIS_MISSING_MESSAGE = `redis-server was not found on PATH. Install it (${REDIS_INSTALL_HINT}) or set REDIS_URL to a Redis you own.`;

/**
 * How every private server keeps its data, single or cluster node: an append-only file synced each
 * second, no RDB snapshots, and writes refused rather than keys evicted when memory runs out (the
 * app's locks and claims must never silently disappear).
 */
export const DURABILITY_FLAGS = [
  "--appendonly",
  "yes",
  "--appendfsync",
  "everysec",
  "--save",
  "",
  "--maxmemory-policy",
  "noeviction",
];

/**
 * The process id of the Redis answering on `port` (INFO server's `process_id`), or null when nothing
 * there answers like Redis within a second (something else on the port that takes the connection and
 * never answers is not Redis).
 */
export async function redisPidOn(port: number): Promise<number | null> {
  const { connect } = await import("node:net");
  return new Promise<number | null>((resolve) => {
    const sock = connect(port, "127.0.0.1");
    let got = "";
    const done = (pid: number | null) => {
      sock.destroy();
      resolve(pid);
    };
    sock.setTimeout(1_000, () => done(null));
    sock.once("connect", () => sock.write("INFO server\r\n"));
    sock.on("data", (d) => {
      got += d.toString();
      if (!got.startsWith("$")) return done(null);
      const m = /\r\nprocess_id:(\d+)\r\n/.exec(got);
      if (m) done(Number(m[1]));
    });
    sock.once("error", () => done(null));
    sock.once("end", () => done(null));
  });
}

/** The server exited before it answered: most often its port was taken after it was chosen. */
export class RedisExitedEarly extends Error {}

/**
 * Waits until `child` itself answers on `port`. Another server that took the port between its
 * choice and the child's start (tests start several servers at once) answers too, so the answer
 * must name the child's process id. A child that never becomes ready is killed: untracked, it would
 * keep its port, and its handle would keep the caller's process from exiting. The deadline is
 * generous because it only matters when something is wrong: a bench that starts eight private
 * servers side by side on a loaded two-core machine has seen one take more than 10 s to answer.
 */
export async function waitReady(port: number, child: ChildProcess, deadlineMs = 30_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new RedisExitedEarly(
        `redis-server on port ${port} exited early (${child.exitCode ?? child.signalCode})`,
      );
    if ((await redisPidOn(port)) === child.pid) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill("SIGKILL");
  throw new Error(`redis-server did not answer on port ${port} within ${deadlineMs} ms`);
}

/**
 * Runs a fresh start, and when its server exits before answering (most often: the port chosen for
 * it was taken meanwhile) chooses again and retries, a few times at most.
 */
export async function startOnFreePort<T>(
  start: () => Promise<T>,
  chooseAgain: () => Promise<void>,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await start();
    } catch (err) {
      if (!(err instanceof RedisExitedEarly) || tries >= 5) throw err;
      await chooseAgain();
    }
  }
}

/** `readyMs`: how long a start may take to answer before it is killed and reported [30 s]. */
export async function startPrivateRedis(o: { readyMs?: number } = {}): Promise<PrivateRedis> {
  // A typed error: the CLI prints it as one sentence rather than a stack trace.
  if (!redisServerAvailable()) throw new AppError("redis_server_missing", REDIS_MISSING_MESSAGE);
  const dir = mkdtempSync(join(tmpdir(), "insights-redis-"));
  let port = await freePort();
  let child: ChildProcess | undefined;
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  // A test runner or demo that exits (or crashes) without destroy() must not leave the server behind.
  const killOnExit = () => {
    if (alive()) child?.kill("SIGKILL");
  };
  process.once("exit", killOnExit);
  const launch = async () => {
    // Already running: a second server on the same port would fail to bind, yet the readiness check
    // would get its answer from the first, and the first would be left running untracked.
    if (alive()) return;
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, ...DURABILITY_FLAGS, "--daemonize", "no"],
      { stdio: "ignore" },
    );
    await waitReady(port, child, o.readyMs);
  };
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill(signal);
    });
  };
  await startOnFreePort(launch, async () => {
    port = await freePort();
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop,
    restart: launch,
    destroy: async () => {
      await stop();
      process.off("exit", killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
