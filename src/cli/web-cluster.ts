import cluster, { type Worker } from "node:cluster";
import type { Logger } from "../log.ts";

/** Options of runWebCluster. Defaults in brackets. */
export interface WebClusterOptions {
  processes: number;
  logger: Logger;
  /** How long a stop waits for the web processes before killing them [30 s]. */
  stopMs?: number;
  /** Wait before replacing a process that died [1 s; doubling while they keep dying, up to 30 s]. */
  restartMs?: number;
}

/** A wait that does not keep the process alive once everything else is done. */
/** What the primary sends a web process to stop it (a platform may also signal the whole group). */
export const STOP_MESSAGE = "insights-digest:stop";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/**
 * `web` with WEB_CONCURRENCY > 1: this (primary) process forks that many web processes, which share
 * the port (node:cluster hands each incoming connection to one of them), replaces one that dies, and
 * on SIGTERM/SIGINT tells them to stop and waits for them to finish what they hold. The primary
 * serves nothing itself. Each web process is the ordinary `web` (same environment, same code path).
 */
export function runWebCluster(o: WebClusterOptions): Promise<number> {
  const { logger } = o;
  let stopping = false;
  let backoff = o.restartMs ?? 1_000;
  const fork = () => {
    const w = cluster.fork();
    w.on("online", () => logger.info({ worker: w.process.pid }, "web process started"));
    // Started is not serving: a process takes connections only once its server listens (its start
    // loads the app and connects to Redis first), so that is logged on its own.
    w.on("listening", (address) =>
      logger.info({ worker: w.process.pid, port: address.port }, "web process listening"),
    );
  };
  for (let i = 0; i < o.processes; i++) fork();
  cluster.on("exit", (w: Worker, code, signal) => {
    if (stopping) return;
    logger.error({ worker: w.process.pid, code, signal }, "web process died; starting another");
    const wait = backoff;
    backoff = Math.min(backoff * 2, 30_000);
    setTimeout(fork, wait).unref();
    // A process that lives a minute resets the back-off.
    setTimeout(() => {
      backoff = o.restartMs ?? 1_000;
    }, 60_000).unref();
  });
  logger.info({ processes: o.processes }, "web cluster started");
  return new Promise((resolve) => {
    const stop = async (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting now");
        process.exit(130);
      }
      stopping = true;
      logger.info({ signal }, "stopping the web processes");
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
      const exited = alive.map(
        (w) => new Promise<void>((r) => (w.isDead() ? r() : w.once("exit", () => r()))),
      );
      for (const w of alive) w.process.kill("SIGTERM");
      const done = await Promise.race([
        Promise.all(exited).then(() => true),
        sleep(o.stopMs ?? 30_000).then(() => false),
      ]);
      if (!done) for (const w of alive) if (!w.isDead()) w.process.kill("SIGKILL");
      resolve(done ? 0 : 1);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}
