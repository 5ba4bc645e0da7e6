import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DURABILITY_FLAGS,
  freePort,
  REDIS_MISSING_MESSAGE,
  redisServerAvailable,
  startOnFreePort,
  waitReady,
} from "./redis.ts";

/**
 * A private Redis with Sentinel, built from redis-server alone: a primary, `replicas` replicas of it
 * and `sentinels` sentinels (`redis-server <conf> --sentinel`) watching it under the name `name`, each
 * process on a free loopback port in its own temp dir. `url` is the app's REDIS_URL for it
 * (redis-sentinel://…). The sentinels decide quickly (`downAfterMs`), so a test can kill the primary
 * and see a replica promoted within a few seconds.
 */
export interface PrivateRedisSentinel {
  url: string;
  name: string;
  /** The ports of the data servers; index 0 started as the primary. */
  serverPorts: number[];
  sentinelPorts: number[];
  /** The port the sentinels currently name as the primary. */
  primaryPort(): number;
  /** Kills a data server (SIGKILL: a crash, nothing flushed); its dir stays. */
  killServer(port: number, signal?: NodeJS.Signals): Promise<void>;
  /** Resolves once a majority of sentinels name a primary other than `oldPort`; returns its port. */
  waitForPromotion(oldPort: number, timeoutMs?: number): Promise<number>;
  destroy(): Promise<void>;
}

export interface SentinelOptions {
  replicas?: number;
  sentinels?: number;
  /** How long the primary must be silent before a sentinel thinks it down [1 s]. */
  downAfterMs?: number;
  name?: string;
  /**
   * Ports to try first, data servers then sentinels (tests: a port already taken must lead to a set
   * on other ports). A set that cannot start on its ports starts again on free ones.
   */
  firstPorts?: number[];
}

const cli = (port: number, ...args: string[]) =>
  spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], { encoding: "utf8" });

async function waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis sentinel: ${what} within ${ms} ms`);
}

const infoField = (port: number, section: string, field: string) =>
  new RegExp(`^${field}:(.*)$`, "m").exec(cli(port, "info", section).stdout ?? "")?.[1]?.trim();

/** Distinct free ports (freePort alone may hand the same one out twice in a row). */
async function freePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < n) {
    const p = await freePort();
    if (!ports.includes(p)) ports.push(p);
  }
  return ports;
}

export async function startPrivateRedisSentinel(o: SentinelOptions = {}): Promise<PrivateRedisSentinel> {
  if (!redisServerAvailable()) throw new Error(REDIS_MISSING_MESSAGE);
  // Its ports are chosen before any of its servers starts, so another test's server may take one
  // meanwhile (that server then exits early): the whole set starts again on ports chosen afresh.
  let ports = o.firstPorts;
  return startOnFreePort(
    async () => startSet(o, ports ?? (await freePorts(1 + (o.replicas ?? 1) + (o.sentinels ?? 3)))),
    async () => {
      ports = undefined;
    },
  );
}

/** One try at the whole set on `ports`; a failure stops what it started and removes its dirs. */
async function startSet(o: SentinelOptions, ports: number[]): Promise<PrivateRedisSentinel> {
  const name = o.name ?? "insights-primary";
  const replicas = o.replicas ?? 1;
  const sentinelCount = o.sentinels ?? 3;
  const downAfterMs = o.downAfterMs ?? 1_000;
  const root = mkdtempSync(join(tmpdir(), "insights-redis-sentinel-"));
  const serverPorts = ports.slice(0, 1 + replicas);
  const sentinelPorts = ports.slice(1 + replicas);
  const [primary] = serverPorts as [number];
  const children = new Map<number, ChildProcess>();
  const alive = (c: ChildProcess | undefined) =>
    c !== undefined && c.exitCode === null && c.signalCode === null;
  // A runner that exits without destroy() must not leave servers behind.
  const killAll = () => {
    for (const c of children.values()) if (alive(c)) c.kill("SIGKILL");
  };
  process.once("exit", killAll);

  const launch = async (port: number, args: string[]) => {
    const child = spawn("redis-server", args, { stdio: "ignore" });
    children.set(port, child);
    // The answer must come from this child: another server may have taken the port meanwhile.
    await waitReady(port, child);
  };
  const quorum = Math.floor(sentinelCount / 2) + 1;
  try {
    for (const port of serverPorts) {
      const dir = join(root, `server-${port}`);
      mkdirSync(dir);
      await launch(port, [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        ...DURABILITY_FLAGS,
        ...(port === primary ? [] : ["--replicaof", "127.0.0.1", String(primary)]),
      ]);
    }
    await waitFor(
      () => Number(infoField(primary, "replication", "connected_slaves") ?? 0) === replicas,
      "every replica connected",
    );
    await waitFor(
      () => serverPorts.slice(1).every((p) => infoField(p, "replication", "master_link_status") === "up"),
      "every replica in sync",
    );
    for (const port of sentinelPorts) {
      const dir = join(root, `sentinel-${port}`);
      mkdirSync(dir);
      // A sentinel rewrites its config file as it learns, so each has its own, writable.
      const conf = join(dir, "sentinel.conf");
      writeFileSync(
        conf,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${primary} ${quorum}`,
          `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
          `sentinel failover-timeout ${name} ${Math.max(downAfterMs * 5, 5_000)}`,
          `sentinel parallel-syncs ${name} 1`,
          "",
        ].join("\n"),
      );
      await launch(port, [conf, "--sentinel"]);
    }
    // A failover needs every sentinel to know the replicas and a majority of the other sentinels (they
    // find each other through the primary, every 2 s).
    await waitFor(
      () =>
        sentinelPorts.every((p) => {
          const others = (cli(p, "sentinel", "sentinels", name).stdout ?? "").match(/^name$/gm)?.length ?? 0;
          const known = (cli(p, "sentinel", "replicas", name).stdout ?? "").match(/^name$/gm)?.length ?? 0;
          return others >= sentinelCount - 1 && known >= replicas;
        }),
      "the sentinels know each other and the replicas",
    );
  } catch (err) {
    killAll();
    process.off("exit", killAll);
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
  const namedPrimary = (sentinel: number) =>
    Number((cli(sentinel, "sentinel", "get-master-addr-by-name", name).stdout ?? "").trim().split("\n")[1]);
  const stop = async (port: number, signal: NodeJS.Signals = "SIGTERM") => {
    const c = children.get(port);
    if (!c || !alive(c)) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill(signal);
    });
  };
  return {
    url: `redis-sentinel://${sentinelPorts.map((p) => `127.0.0.1:${p}`).join(",")}/${name}`,
    name,
    serverPorts,
    sentinelPorts,
    primaryPort: () => namedPrimary(sentinelPorts[0] as number),
    killServer: (port, signal = "SIGKILL") => stop(port, signal),
    async waitForPromotion(oldPort, timeoutMs = 30_000) {
      let promoted = 0;
      await waitFor(
        () => {
          const named = sentinelPorts.map(namedPrimary).filter((p) => p && p !== oldPort);
          promoted = named[0] ?? 0;
          return named.length >= quorum && infoField(promoted, "replication", "role") === "master";
        },
        "a replica promoted",
        timeoutMs,
      );
      return promoted;
    },
    async destroy() {
      for (const port of [...sentinelPorts, ...serverPorts]) await stop(port);
      process.off("exit", killAll);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
