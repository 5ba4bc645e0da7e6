import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { freePort } from "../../../sandbox/redis.ts";
import { procfileNodeFlags, productCli } from "../../setup/product-build.ts";
import { benchChildFlags } from "../child.ts";

/**
 * The product as it is deployed: `insights-digest start`, or `web` and `worker` as the Procfile runs
 * them, each a process of its own started from the CLI with an environment, plus the bare Bolt
 * yardstick in a process of its own. CPU is read from /proc per process tree (a web's cluster
 * workers included), so each figure is that process's work alone, not the bench's.
 */

const BARE = fileURLToPath(new URL("../bare-bolt.ts", import.meta.url));

export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  /** The port of its HTTP server (Slack requests for web/start, /readyz for a worker). */
  port: number;
  /** Where its stdout and stderr go. */
  logFile: string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** Extra Node flags (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  logDir: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ready(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not become ready at ${url}`);
    await sleep(100);
  }
}

function launch(name: string, args: string[], env: Record<string, string>, o: SpawnOptions) {
  const logFile = `${o.logDir}/${name}.log`;
  const fd = openSync(logFile, "a");
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), ...benchChildFlags(), ...args], {
    stdio: ["ignore", fd, fd],
    env: { ...process.env, ...env },
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const done = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
      if (!done) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** `insights-digest <command>` (start, web or worker) with `env`; resolves once it answers its health check. */
export async function spawnProduct(
  command: "start" | "web" | "worker",
  env: Record<string, string>,
  o: SpawnOptions & { name?: string },
): Promise<Proc> {
  const port = await freePort();
  const health = await freePort();
  const name = o.name ?? command;
  const own = { ...env, PORT: String(port), HEALTH_PORT: String(health) };
  // The compiled product when the build is fresh (a production install's `insights-digest`), else the
  // sources through tsx.
  const cli = productCli([command]);
  // Web and worker with the Procfile's Node flags, as deployed; `start` has no Procfile line.
  const flags = command === "start" ? [] : procfileNodeFlags(command);
  const p = launch(
    name,
    cli.argv,
    { ...own, ...cli.env },
    { ...o, nodeArgs: [...flags, ...(o.nodeArgs ?? [])] },
  );
  const url = command === "worker" ? `http://127.0.0.1:${health}/readyz` : `http://127.0.0.1:${port}/readyz`;
  try {
    await ready(url, p.child, name);
  } catch (err) {
    await p.stop();
    throw err;
  }
  return { name, pid: p.child.pid ?? 0, port: command === "worker" ? health : port, ...p };
}

/** The bare Bolt app (bare-bolt.ts) as a process of its own on a free port. */
export async function spawnBare(signingSecret: string, o: SpawnOptions): Promise<Proc> {
  const port = await freePort();
  const p = launch(
    "bare-bolt",
    ["--import", "tsx", BARE],
    { BARE_PORT: String(port), BARE_SECRET: signingSecret },
    o,
  );
  await ready(`http://127.0.0.1:${port}/healthz`, p.child, "bare Bolt");
  return { name: "bare-bolt", pid: p.child.pid ?? 0, port, ...p };
}

function children(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.set(ppid, [...(out.get(ppid) ?? []), Number(name)]);
    } catch {
      // it ended while we looked
    }
  }
  return out;
}

/** Nanoseconds on a CPU of every thread of `pid` (from schedstat: finer than the clock ticks of stat). */
function processNs(pid: number, mainThreadOnly: boolean): number {
  let ns = 0;
  const tasks = mainThreadOnly ? [String(pid)] : readdirSync(`/proc/${pid}/task`);
  for (const tid of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended while we looked
    }
  }
  return ns;
}

/** CPU ms used so far by `pid` and its descendants (a web's cluster workers); or by its main thread only. */
export function cpuMs(pid: number, o: { mainThreadOnly?: boolean } = {}): number {
  try {
    if (o.mainThreadOnly) return processNs(pid, true) / 1e6;
    const kids = children();
    let ns = 0;
    const stack = [pid];
    while (stack.length > 0) {
      const p = stack.pop() as number;
      ns += processNs(p, false);
      stack.push(...(kids.get(p) ?? []));
    }
    return ns / 1e6;
  } catch {
    return 0;
  }
}
