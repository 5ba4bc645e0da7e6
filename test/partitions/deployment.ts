import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { DURABILITY_FLAGS } from "../../sandbox/redis.ts";
import type { Net } from "./netns.ts";

/**
 * Redis with Sentinel spread over hosts: the primary and the replica each in a namespace of their own
 * (port 6379), three sentinels each in theirs (port 26379), all plain redis-server processes. Each
 * also listens on a unix socket in `dir`: the harness's own way in, which no cut reaches (sockets on
 * the file system cross namespaces). The app reaches them only over the namespaces' network.
 */

export const NAME = "insights";
export const REDIS_PORT = 6379;
export const SENTINEL_PORT = 26379;

export interface DeploymentOptions {
  net: Net;
  dir: string;
  servers: [string, string];
  sentinels: string[];
  /** `min-replicas-to-write` on both servers (with `min-replicas-max-lag` 10) [0]. */
  minReplicas?: number;
  /** Sentinel's down-after-milliseconds [3000]. */
  downAfterMs?: number;
}

export interface Deployment {
  url: string;
  /** The node name of the primary a majority of the sentinels name now. */
  primary(): Promise<string>;
  /** An admin connection to a data server or a sentinel, over its unix socket (never cut). */
  admin(node: string): Redis;
  /** The redis-server process of a node. */
  process(node: string): ChildProcess;
  /** Starts a data server again (after a kill) on its dir; Sentinel makes it a replica. */
  restart(node: string): Promise<void>;
  /**
   * Waits until the deployment is whole again: every server running and resumed (a dead one is
   * started again), a majority of the sentinels naming a primary, the other server its replica in
   * sync, and the sentinels seeing that replica healthy.
   */
  settle(timeoutMs?: number): Promise<void>;
  /** Resolves with the new primary's node once a majority of sentinels name one other than `old`. */
  waitForPromotion(old: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startDeployment(o: DeploymentOptions): Promise<Deployment> {
  const { net, dir } = o;
  const downAfterMs = o.downAfterMs ?? 3_000;
  const sock = (node: string) => join(dir, `${node}.sock`);
  const procs = new Map<string, ChildProcess>();
  const admins = new Map<string, Redis>();
  const admin = (node: string) => {
    let c = admins.get(node);
    if (!c) {
      c = new Redis({ path: sock(node), maxRetriesPerRequest: 3, commandTimeout: 3_000 });
      c.on("error", () => undefined);
      admins.set(node, c);
    }
    return c;
  };
  const ready = async (node: string) => {
    for (let i = 0; i < 600; i++) {
      const p = procs.get(node);
      if (p && (p.exitCode !== null || p.signalCode !== null)) throw new Error(`${node} exited early`);
      try {
        if ((await admin(node).ping()) === "PONG") return;
      } catch {
        // Not up yet.
      }
      await sleep(50);
    }
    throw new Error(`${node} did not answer`);
  };
  const [first, second] = o.servers;
  const serverArgs = (node: string) => {
    const d = join(dir, node);
    mkdirSync(d, { recursive: true });
    return [
      "--port",
      String(REDIS_PORT),
      "--bind",
      net.node(node).addr,
      "--unixsocket",
      sock(node),
      "--unixsocketperm",
      "700",
      "--dir",
      d,
      ...DURABILITY_FLAGS,
      "--min-replicas-to-write",
      String(o.minReplicas ?? 0),
      "--min-replicas-max-lag",
      "10",
      "--protected-mode",
      "no",
    ];
  };
  const launch = async (node: string, args: string[]) => {
    const p = net.spawn(node, "redis-server", args, { stdio: "ignore" });
    procs.set(node, p);
    await ready(node);
  };
  await launch(first, serverArgs(first));
  await launch(second, [...serverArgs(second), "--replicaof", net.node(first).addr, String(REDIS_PORT)]);
  for (let i = 0; ; i++) {
    if (/master_link_status:up/.test(await admin(second).info("replication"))) break;
    if (i > 400) throw new Error("the replica did not sync");
    await sleep(50);
  }
  const quorum = Math.floor(o.sentinels.length / 2) + 1;
  for (const node of o.sentinels) {
    const d = join(dir, node);
    mkdirSync(d, { recursive: true });
    const conf = join(d, "sentinel.conf");
    writeFileSync(
      conf,
      [
        `port ${SENTINEL_PORT}`,
        `bind ${net.node(node).addr}`,
        `unixsocket ${sock(node)}`,
        "protected-mode no",
        `dir ${d}`,
        `sentinel monitor ${NAME} ${net.node(first).addr} ${REDIS_PORT} ${quorum}`,
        `sentinel down-after-milliseconds ${NAME} ${downAfterMs}`,
        `sentinel failover-timeout ${NAME} 10000`,
        `sentinel parallel-syncs ${NAME} 1`,
        "",
      ].join("\n"),
    );
    await launch(node, [conf, "--sentinel"]);
  }
  // A failover needs each sentinel to know the replica and the other sentinels (hellos every 2 s).
  for (let i = 0; ; i++) {
    const known = await Promise.all(
      o.sentinels.map(async (s) => {
        const others = ((await admin(s).call("SENTINEL", "SENTINELS", NAME)) as unknown[]).length;
        const replicas = ((await admin(s).call("SENTINEL", "REPLICAS", NAME)) as unknown[]).length;
        return others >= o.sentinels.length - 1 && replicas >= 1;
      }),
    );
    if (known.every(Boolean)) break;
    if (i > 600) throw new Error("the sentinels did not find each other");
    await sleep(100);
  }
  const byAddr = new Map([...net.nodes.values()].map((n) => [n.addr, n.name]));
  const named = async (sentinel: string): Promise<string | undefined> => {
    try {
      const [addr] = (await admin(sentinel).call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", NAME)) as string[];
      return byAddr.get(addr ?? "");
    } catch {
      return undefined;
    }
  };
  const majority = async (): Promise<string | undefined> => {
    const names = await Promise.all(o.sentinels.map(named));
    for (const n of new Set(names)) if (n && names.filter((x) => x === n).length >= quorum) return n;
    return undefined;
  };
  return {
    url: `redis-sentinel://${o.sentinels.map((s) => `${net.node(s).addr}:${SENTINEL_PORT}`).join(",")}/${NAME}`,
    async primary() {
      const p = await majority();
      if (!p) throw new Error("no majority of the sentinels names a primary");
      return p;
    },
    admin,
    process: (node) => {
      const p = procs.get(node);
      if (!p) throw new Error(`no process on ${node}`);
      return p;
    },
    async restart(node) {
      admins.get(node)?.disconnect();
      admins.delete(node);
      await launch(node, serverArgs(node));
    },
    async settle(timeoutMs = 180_000) {
      for (const node of o.servers) {
        const p = procs.get(node);
        if (!p || p.exitCode !== null || p.signalCode !== null) {
          admins.get(node)?.disconnect();
          admins.delete(node);
          await launch(node, serverArgs(node));
        } else p.kill("SIGCONT");
      }
      const until = Date.now() + timeoutMs;
      let last = "";
      while (Date.now() < until) {
        try {
          const p = await majority();
          const other = o.servers.find((x) => x !== p);
          if (p && other) {
            const [primaryInfo, replicaInfo] = await Promise.all([
              admin(p).info("replication"),
              admin(other).info("replication"),
            ]);
            const healthy = await Promise.all(
              o.sentinels.map(async (sn) => {
                const list = (await admin(sn).call("SENTINEL", "REPLICAS", NAME)) as string[][];
                return list.some((r) => {
                  const f: Record<string, string> = {};
                  for (let i = 0; i + 1 < r.length; i += 2) f[r[i] as string] = r[i + 1] as string;
                  return (
                    f.ip === net.node(other).addr &&
                    !/s_down|o_down|disconnected/.test(f.flags ?? "") &&
                    f["master-link-status"] === "ok"
                  );
                });
              }),
            );
            last = `primary ${p}, replica link ${/master_link_status:(\w+)/.exec(replicaInfo)?.[1]}, sentinels seeing it ${healthy.filter(Boolean).length}`;
            if (
              /role:master/.test(primaryInfo) &&
              /master_link_status:up/.test(replicaInfo) &&
              replicaInfo.includes(`master_host:${net.node(p).addr}`) &&
              healthy.filter(Boolean).length >= quorum
            )
              return;
          }
        } catch (err) {
          last = (err as Error).message;
        }
        await sleep(250);
      }
      throw new Error(`the deployment did not settle within ${timeoutMs} ms: ${last}`);
    },
    async waitForPromotion(old, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const p = await majority();
        if (p && p !== old) {
          try {
            if (/role:master/.test(await admin(p).info("replication"))) return p;
          } catch {
            // A paused or cut server: ask again.
          }
        }
        await sleep(100);
      }
      throw new Error(`no promotion away from ${old} within ${timeoutMs} ms`);
    },
    async close() {
      for (const c of admins.values()) c.disconnect();
      for (const p of procs.values()) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
    },
  };
}
