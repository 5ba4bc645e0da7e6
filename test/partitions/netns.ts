import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { startReaper } from "./reaper.ts";

/**
 * Hosts on one machine: each node is a network namespace of its own with one address, 10.<77+w>.<n>.2,
 * on a veth pair whose other end is in a router namespace (10.<77+w>.<n>.1, forwarding). Links between
 * two nodes are cut in the router with policy rules of type `blackhole`, which drop the packets
 * silently (no RST, no ICMP): what a partition looks like from both ends. Everything lives in
 * namespaces made here, named `insp<w>-…`; the host's own interfaces are never touched (the veth
 * pairs are created inside the namespaces). Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN).
 *
 * `w` is the world: several run side by side on one machine, each with namespaces and addresses of
 * its own, and each start removes only what an earlier run of the same world left.
 */

/** Every namespace of this harness starts with this and its world's number. */
export const NS_PREFIX = "insp";

/** Worlds 0 to this one can run side by side (their second octets stay in 10.77–10.126). */
export const MAX_WORLD = 49;

/** The prefix of world `w`'s namespaces (`insp<w>`, then `-` and the node's name). */
export const worldPrefix = (world: number) => `${NS_PREFIX}${world}`;

export interface Node {
  name: string;
  ns: string;
  addr: string;
}

export interface Net {
  nodes: ReadonlyMap<string, Node>;
  node(name: string): Node;
  /** Drops every packet between the two nodes, both ways, silently. */
  cut(a: string, b: string): void;
  /** Drops the TCP packets between `a` and `b`'s `port`, both ways (one service, not the whole host). */
  cutPort(a: string, b: string, port: number): void;
  /** Lifts every cut. */
  healAll(): void;
  /** Runs `cmd` inside a node's namespace (`ip netns exec`). */
  spawn(node: string, cmd: string, args: string[], o?: Parameters<typeof spawn>[2]): ChildProcess;
  /** Kills every process in the namespaces and deletes them (the veths go with them). */
  destroy(): void;
}

const ip = (...args: string[]) => {
  const r = spawnSync("ip", args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ip ${args.join(" ")}: ${(r.stderr || r.error?.message || "").trim()}`);
  return r.stdout;
};

/** Kills the processes of a namespace and deletes it; quiet when it is gone already. */
function removeNamespace(ns: string): void {
  const pids = spawnSync("ip", ["netns", "pids", ns], { encoding: "utf8" }).stdout ?? "";
  for (const pid of pids.split(/\s+/).filter(Boolean)) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  spawnSync("ip", ["netns", "del", ns], { stdio: "ignore" });
}

/** Namespaces of `prefix` (and their processes) that earlier runs left behind, killed or not. */
export function removeLeftovers(prefix: string): string[] {
  const list = spawnSync("ip", ["netns", "list"], { encoding: "utf8" }).stdout ?? "";
  const left = list
    .split("\n")
    .map((l) => l.split(" ")[0] ?? "")
    .filter((n) => n.startsWith(`${prefix}-`));
  for (const ns of left) removeNamespace(ns);
  return left;
}

/**
 * Whether this machine lets us make namespaces: the reason when not (the partition tests cannot run
 * without it, and say so rather than pass).
 */
export function namespacesUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return "the partition harness needs root (it makes network namespaces)";
  const probe = `${NS_PREFIX}-probe-${process.pid}`;
  const r = spawnSync("ip", ["netns", "add", probe], { encoding: "utf8" });
  if (r.status !== 0)
    return `cannot create a network namespace (ip netns add): ${(r.stderr || r.error?.message || "").trim()}`;
  spawnSync("ip", ["netns", "del", probe], { stdio: "ignore" });
  return undefined;
}

/** Options of createNet. */
export interface NetOptions {
  /** Which world [0]: its namespaces' prefix and its addresses. */
  world?: number;
  /** Paths (a data dir) the watcher also removes if the process dies before it cleans up. */
  alsoRemove?: string[];
}

/**
 * The router and one namespace per node name, wired and addressed. Removes what earlier runs of the
 * same world left first. Its removal runs at the process's exit and on SIGINT/SIGTERM, and a watcher
 * outside the process (reaper.ts) does it when the process dies without running them (SIGKILL).
 */
export function createNet(names: string[], o: NetOptions = {}): Net {
  const world = o.world ?? 0;
  if (!Number.isInteger(world) || world < 0 || world > MAX_WORLD)
    throw new Error(`world ${world}: 0 to ${MAX_WORLD}`);
  const prefix = worldPrefix(world);
  removeLeftovers(prefix);
  const router = `${prefix}-router`;
  const all = [router, ...names.map((name) => `${prefix}-${name}`)];
  const reaper = startReaper({ namespaces: all, paths: o.alsoRemove ?? [] });
  const nodes = new Map<string, Node>();
  const made: string[] = [];
  const removeAll = () => {
    for (const ns of made.splice(0).reverse()) removeNamespace(ns);
    process.off("exit", removeAll);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  // On a signal the watcher stays: it still removes `alsoRemove` once the process is gone.
  const onSignal = (sig: NodeJS.Signals) => {
    removeAll();
    process.kill(process.pid, sig);
  };
  const destroy = () => {
    removeAll();
    reaper.release();
  };
  process.on("exit", removeAll);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    ip("netns", "add", router);
    made.push(router);
    ip("-n", router, "link", "set", "lo", "up");
    spawnSync("ip", ["netns", "exec", router, "sysctl", "-qw", "net.ipv4.ip_forward=1"]);
    names.forEach((name, i) => {
      const ns = `${prefix}-${name}`;
      const subnet = `10.${77 + world}.${i + 1}`;
      ip("netns", "add", ns);
      made.push(ns);
      // Made inside the router with its peer inside the node: no interface ever shows on the host.
      ip("-n", router, "link", "add", `v${i}`, "type", "veth", "peer", "name", "eth0", "netns", ns);
      ip("-n", router, "addr", "add", `${subnet}.1/24`, "dev", `v${i}`);
      ip("-n", router, "link", "set", `v${i}`, "up");
      ip("-n", ns, "addr", "add", `${subnet}.2/24`, "dev", "eth0");
      ip("-n", ns, "link", "set", "eth0", "up");
      ip("-n", ns, "link", "set", "lo", "up");
      ip("-n", ns, "route", "add", "default", "via", `${subnet}.1`);
      nodes.set(name, { name, ns, addr: `${subnet}.2` });
    });
  } catch (err) {
    destroy();
    throw err;
  }
  const node = (name: string) => {
    const n = nodes.get(name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  };
  let pref = 100;
  const rules: string[][] = [];
  const rule = (...selector: string[]) => {
    const args = [...selector, "blackhole", "pref", String(pref++)];
    ip("-n", router, "rule", "add", ...args);
    rules.push(args);
  };
  return {
    nodes,
    node,
    cut(a, b) {
      rule("from", node(a).addr, "to", node(b).addr);
      rule("from", node(b).addr, "to", node(a).addr);
    },
    cutPort(a, b, port) {
      const [x, y] = [node(a).addr, node(b).addr];
      rule("from", x, "to", y, "ipproto", "tcp", "dport", String(port));
      rule("from", y, "to", x, "ipproto", "tcp", "sport", String(port));
    },
    healAll() {
      for (const args of rules.splice(0)) spawnSync("ip", ["-n", router, "rule", "del", ...args]);
    },
    spawn(name, cmd, args, o = {}) {
      return spawn("ip", ["netns", "exec", node(name).ns, cmd, ...args], o);
    },
    destroy,
  };
}
