import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
 * A private Redis Cluster: `masters` redis-server processes with cluster mode on (AOF, each in its
 * own temp dir, on free loopback ports, bus ports chosen too), joined by `redis-cli --cluster create`
 * with no replicas. Used by the tests and the bench to run the store, scheduler and worker against
 * a real cluster. `REDIS_URL` for the app is `url` (redis-cluster://…).
 */
export interface PrivateRedisCluster {
  url: string;
  ports: number[];
  /** Stops one master (SIGKILL simulates a crash); its dir and nodes.conf stay for `restartNode`. */
  stopNode(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped master again with its data and cluster config; resolves when the cluster is ok. */
  restartNode(index: number): Promise<void>;
  destroy(): Promise<void>;
}

const cli = (port: number, ...args: string[]) =>
  spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], { encoding: "utf8" });

async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis cluster: ${what} within ${ms} ms`);
}

const clusterOk = (port: number) => /cluster_state:ok/.test(cli(port, "cluster", "info").stdout ?? "");

export async function startPrivateRedisCluster(masters = 3): Promise<PrivateRedisCluster> {
  if (!redisServerAvailable()) throw new Error(REDIS_MISSING_MESSAGE);
  if (spawnSync("redis-cli", ["--version"], { stdio: "ignore" }).status !== 0)
    throw new Error(
      "redis-cli was not found on PATH (Debian: it comes with redis-server, package redis-tools).",
    );
  const root = mkdtempSync(join(tmpdir(), "insights-redis-cluster-"));
  const ports: number[] = [];
  const busPorts: number[] = [];
  // A client port and a bus port for node i, none of them already another node's.
  const choosePorts = async (i: number) => {
    for (;;) {
      const p = await freePort();
      const b = await freePort();
      const taken = [...ports.filter((_, j) => j !== i), ...busPorts.filter((_, j) => j !== i)];
      if (p !== b && !taken.includes(p) && !taken.includes(b)) {
        ports[i] = p;
        busPorts[i] = b;
        return;
      }
    }
  };
  for (let i = 0; i < masters; i++) await choosePorts(i);
  const children: (ChildProcess | undefined)[] = [];
  const launch = async (i: number) => {
    const dir = join(root, String(i));
    mkdirSync(dir, { recursive: true });
    const port = ports[i] as number;
    const child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--cluster-port",
        String(busPorts[i]),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-node-timeout",
        "2000",
        ...DURABILITY_FLAGS,
      ],
      { stdio: "ignore" },
    );
    children[i] = child;
    // The answer must come from this node: another server may have taken its port meanwhile.
    await waitReady(port, child, 20_000);
  };
  const stopNode = async (i: number, signal: NodeJS.Signals = "SIGTERM") => {
    const c = children[i];
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill(signal);
    });
  };
  const startNodes = async () => {
    for (let i = 0; i < masters; i++)
      await startOnFreePort(
        () => launch(i),
        () => choosePorts(i),
      );
    const create = spawnSync(
      "redis-cli",
      [
        "--cluster",
        "create",
        ...ports.map((p) => `127.0.0.1:${p}`),
        "--cluster-replicas",
        "0",
        "--cluster-yes",
      ],
      { encoding: "utf8" },
    );
    if (create.status !== 0)
      throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await waitFor(() => ports.every(clusterOk), "cluster_state:ok");
  };
  const destroy = async () => {
    for (let i = 0; i < masters; i++) await stopNode(i);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await startNodes();
  } catch (err) {
    // Nothing is left running when the cluster could not be formed.
    await destroy();
    throw err;
  }
  return {
    url: `redis-cluster://${ports.map((p) => `127.0.0.1:${p}`).join(",")}`,
    ports,
    stopNode,
    async restartNode(i) {
      await launch(i);
      await waitFor(() => ports.every(clusterOk), "cluster_state:ok after restart");
    },
    destroy,
  };
}
