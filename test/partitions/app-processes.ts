import type { ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { freshBuild, productModule } from "../setup/product-build.ts";
import type { Net } from "./netns.ts";

/**
 * The app's own processes on the partitioned hosts: delivery workers and a web process, each in its
 * namespace, reaching Redis only over the namespaces' network. The Slack stand-in and the analytics
 * emulator run in the harness (the host): inside each namespace their loopback ports lead to them
 * through unix sockets, so every URL the stand-in hands out (response_url, upload URLs) works there
 * unchanged, and no cut ever reaches Slack or the analytics service. The harness's side of each
 * socket notes every chat.postMessage that goes through it, so each post is known by its process.
 */

const ROOT = new URL("../../", import.meta.url);

/** Bridges: a unix socket at `path` whose connections go on to `target` (a loopback port or a socket). */
function bridge(path: string, target: { port: number } | { path: string }, onData?: (d: Buffer) => void) {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = "port" in target ? connect(target.port, "127.0.0.1") : connect(target.path);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
      s.on("close", () => sockets.delete(s));
    }
    if (onData) client.on("data", onData);
    client.pipe(upstream).pipe(client);
  });
  const listening = new Promise<void>((resolve) => server.listen(path, () => resolve()));
  return {
    server,
    listening,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Module code a child runs first: the loopback ports of the harness's servers, bridged out. */
const FORWARDS = `
const net = await import("node:net");
for (const [port, path] of o.forward)
  await new Promise((resolve) => net.createServer((c) => {
    const u = net.connect(path);
    c.on("error", () => u.destroy()); u.on("error", () => c.destroy());
    c.pipe(u).pipe(c);
  }).listen(port, "127.0.0.1", resolve));
const { loadConfig } = await import(o.modules.config);
const { createLogger } = await import(o.modules.log);
const logger = createLogger({ level: o.logLevel });
`;

const WORKER = `
const { startWorker } = await import(o.modules.worker);
const tokenFor = async (ref) => o.tokens[ref.teamId] ?? o.env.SLACK_BOT_TOKEN;
const w = await startWorker({ config: loadConfig("worker", o.env), logger, prefix: o.prefix, queueName: o.queueName,
  tokenFor, healthPort: 0, interactive: { queueName: o.interactiveQueue }, policy: o.policy, ...o.tuning });
process.send({ ready: true, healthPort: w.healthPort });
`;

const WEB = `
const { startWeb } = await import(o.modules.web);
const web = await startWeb({ config: loadConfig("web", o.env), logger, prefix: o.prefix, host: "127.0.0.1",
  subscriptions: { queueName: o.queueName }, interactive: { mode: "queue", queueName: o.interactiveQueue } });
const port = Number(new URL(web.url).port);
await new Promise((resolve) => net.createServer((c) => {
  const u = net.connect(port, "127.0.0.1");
  c.on("error", () => u.destroy()); u.on("error", () => c.destroy());
  c.pipe(u).pipe(c);
}).listen(o.webSocket, resolve));
process.send({ ready: true });
`;

export interface AppProcess {
  node: string;
  child: ChildProcess;
  /** When each chat.postMessage of this process went out (ms). */
  posts: number[];
  stop(): Promise<void>;
}

export interface AppOptions {
  net: Net;
  dir: string;
  env: Record<string, string>;
  prefix: string;
  queueName: string;
  interactiveQueue: string;
  tokens: Record<string, string>;
  /** Loopback ports of the harness's servers the process must reach (stand-in, emulator). */
  forward: number[];
  /** The stand-in's port: posts through it are noted. */
  slackPort: number;
  policy?: { attempts: number; backoffMs: number };
  /** More startWorker options, as JSON (e.g. `claims: { leaseMs }`). */
  tuning?: Record<string, unknown>;
}

async function launch(
  kind: "worker" | "web",
  node: string,
  o: AppOptions,
  extra: Record<string, unknown> = {},
): Promise<AppProcess> {
  const posts: number[] = [];
  const bridges = o.forward.map((port) =>
    bridge(
      join(o.dir, `${node}-${port}.sock`),
      { port },
      port === o.slackPort
        ? (d) => {
            for (const _ of d.toString("latin1").matchAll(/POST \S*\/chat\.postMessage /g))
              posts.push(Date.now());
          }
        : undefined,
    ),
  );
  await Promise.all(bridges.map((b) => b.listening));
  // Another checkout's sources (PARTITIONS_PRODUCT_SRC, a directory holding its src/): the same runs
  // against an earlier version of the app, for a before-and-after.
  const other = process.env.PARTITIONS_PRODUCT_SRC;
  const module = (name: string) =>
    other ? pathToFileURL(join(other, "src", `${name}.ts`)).href : productModule(name);
  const built = !other && freshBuild() !== undefined;
  const code = `const o = JSON.parse(process.env.CHILD_OPTIONS);\n${FORWARDS}\n${kind === "worker" ? WORKER : WEB}`;
  const options = {
    ...o,
    ...extra,
    net: undefined,
    forward: o.forward.map((port) => [port, join(o.dir, `${node}-${port}.sock`)]),
    logLevel: "info",
    modules: {
      config: module("config"),
      log: module("log"),
      worker: module("app/worker"),
      web: module("app/web"),
    },
  };
  const log = openSync(join(o.dir, `${node}.log`), "a");
  const child = o.net.spawn(
    node,
    process.execPath,
    [...(built ? [] : ["--import", "tsx"]), "--input-type=module", "-e", code],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", CHILD_OPTIONS: JSON.stringify(options) },
      stdio: ["ignore", log, log, "ipc"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${kind} on ${node} did not start (see ${node}.log)`)),
      180_000,
    );
    child.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} on ${node} exited (${code}) before it was ready (see ${node}.log)`));
    });
  });
  return {
    node,
    child,
    posts,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await gone;
      }
      await Promise.all(bridges.map((b) => b.close()));
    },
  };
}

export const startWorkerProcess = (node: string, o: AppOptions) => launch("worker", node, o);

/**
 * The web process on `node`; `url` is its address for the stand-in on the host (a loopback port
 * bridged into the namespace).
 */
export async function startWebProcess(node: string, o: AppOptions): Promise<AppProcess & { url: string }> {
  const webSocket = join(o.dir, `${node}-web.sock`);
  const app = await launch("web", node, o, { webSocket });
  const server: Server = createServer((client) => {
    const upstream = connect(webSocket);
    for (const s of [client, upstream]) s.on("error", () => (s === client ? upstream : client).destroy());
    client.pipe(upstream).pipe(client);
  });
  // A port the kernel picks as it binds: no window in which a test running beside takes it.
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    ...app,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      server.close();
      await app.stop();
    },
  };
}
