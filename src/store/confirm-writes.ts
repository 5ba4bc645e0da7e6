import type { Redis } from "ioredis";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { isCluster, type RedisClient } from "./redis-client.ts";

/**
 * Which writes wait for a replica before the app relies on them (REDIS_CONFIRM_WRITES):
 * - `auto`: when the deployment has a replica to lose them to. On Sentinel, when a majority of the
 *   sentinels name the server written to as the primary and know a replica of it they could promote
 *   (the server written to is not the one they name: nothing is confirmed, since that is a primary
 *   cut off from them, whose writes a failover discards); elsewhere when the server reports a
 *   connected replica.
 * - `replica`: always (a server without a replica then refuses every post: nothing can be confirmed);
 * - `off`: never (one server without replicas, or a deployment that accepts the risk).
 */
export type ConfirmWrites = "auto" | "off" | "replica";

/**
 * What a majority of the sentinels say now: the run id of the primary they name, and how many of its
 * replicas they could still promote (up, or down for less than ten times their down-after time). Null
 * when no majority agrees (or answers).
 */
export interface SentinelView {
  /** `ip:port` as the sentinels announce it (and the app connects to). */
  primaryAddr: string;
  /** Empty for the first seconds after a failover, before the sentinels have read it. */
  primaryRunId: string;
  replicas: number;
}

/**
 * A write that decides a post was not acknowledged by a replica (or the disk) in time: nothing goes
 * out, and the work is tried again. `what`: whose claim it was [the delivery's].
 */
export class WriteUnconfirmed extends AppError<"redis_unconfirmed"> {
  constructor(timeoutMs: number, what = "the delivery's claim") {
    super(
      "redis_unconfirmed",
      `No Redis replica acknowledged ${what} within ${timeoutMs} ms; not posting, trying again shortly.`,
      { details: { timeoutMs } },
    );
  }
}

/** Whether an error is WriteUnconfirmed (also across a thread, where only the code survives). */
export const isWriteUnconfirmed = (err: unknown): boolean =>
  (err as { code?: unknown } | null)?.code === "redis_unconfirmed";

/** What the confirmations have seen lately, for /readyz. */
export interface ConfirmReport {
  mode: ConfirmWrites;
  /** Whether writes are waited for now (`auto` decides per server). */
  waiting: boolean;
  /** The outcome of the last confirmation: `confirmed`, `unconfirmed`, or `none` yet. */
  last: "confirmed" | "unconfirmed" | "none";
}

/**
 * Waits until the writes a connection made so far are safe from a failover: held by a replica (WAIT),
 * and on the primary's disk where the server can say so (WAITAOF, Redis 7.2+, with AOF on). Every
 * caller gets its answer from one round of the two commands shared by all callers that asked while
 * the previous round was out, so a slot of hundreds of deliveries costs a handful of rounds.
 */
export interface WriteConfirmer {
  /**
   * True once every write made on the confirmer's connection before the call is confirmed, or at once
   * when nothing needs confirming; false when it could not be within the timeout (or the connection
   * failed): the caller must then act as if the write may be lost.
   */
  confirm(): Promise<boolean>;
  report(): ConfirmReport;
  readonly timeoutMs: number;
}

/** Options of createWriteConfirmer. Defaults in brackets. */
export interface ConfirmOptions {
  /**
   * The connection the writes went through: WAIT counts the replicas holding the last write of the
   * connection it is sent on. Blocking: give it one used only for the writes being confirmed.
   */
  redis: RedisClient;
  mode: ConfirmWrites;
  /** On a Sentinel deployment: what the sentinels say (see SentinelView); asked once per round. */
  sentinelView?: () => Promise<SentinelView | null>;
  /** How long a round may wait for the replica (and the disk) [2 s]. */
  timeoutMs?: number;
  /** How often `auto` asks a server whether it has replicas [10 s]. */
  infoEveryMs?: number;
  logger: Logger;
}

/** What INFO says about one server, as far as confirming writes goes. */
export interface ServerFacts {
  replicas: number;
  /** WAITAOF exists (7.2+) and AOF is on: its local fsync can be waited for. */
  waitaof: boolean;
  runId: string;
}

/** Reads INFO's replication, persistence and server sections. */
export function serverFacts(info: string): ServerFacts {
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, "m").exec(info)?.[1]?.trim() ?? "";
  const [major = 0, minor = 0] = field("redis_version").split(".").map(Number);
  const role = field("role");
  return {
    replicas: role === "master" ? Number(field("connected_slaves") || 0) : 0,
    waitaof: field("aof_enabled") === "1" && (major > 7 || (major === 7 && minor >= 2)),
    runId: field("run_id"),
  };
}

/** The address a connection reached (IPv4 as itself, not mapped into IPv6). */
const peerOf = (conn: Redis): string => {
  const s = conn.stream as { remoteAddress?: string; remotePort?: number } | undefined;
  return `${(s?.remoteAddress ?? "").replace(/^::ffff:/, "")}:${s?.remotePort ?? ""}`;
};

interface Node {
  conn: Redis;
  /** INFO as last read; dropped at every (re)connect, which may reach another server. */
  facts: ServerFacts | null;
  checkedAt: number;
}

/**
 * @example
 * const confirmer = createWriteConfirmer({ redis: decisive, mode: "auto", logger });
 * await decisive.hset(key, field, value);
 * if (!(await confirmer.confirm())) throw new WriteUnconfirmed(confirmer.timeoutMs);
 */
export function createWriteConfirmer(o: ConfirmOptions): WriteConfirmer {
  const timeoutMs = o.timeoutMs ?? 2_000;
  const infoEveryMs = o.infoEveryMs ?? 10_000;
  const nodes = new Map<Redis, Node>();
  let last: ConfirmReport["last"] = "none";
  let waiting = o.mode === "replica";

  // A cluster's writes go out on each master's own connection: a round waits on every one of them.
  const connections = (): Redis[] => (isCluster(o.redis) ? o.redis.nodes("master") : [o.redis as Redis]);
  const nodeOf = (conn: Redis): Node => {
    let n = nodes.get(conn);
    if (!n) {
      const node: Node = { conn, facts: null, checkedAt: 0 };
      conn.on("ready", () => {
        node.facts = null;
      });
      nodes.set(conn, node);
      n = node;
    }
    return n;
  };
  const factsOf = async (n: Node): Promise<ServerFacts> => {
    if (n.facts && Date.now() - n.checkedAt < infoEveryMs) return n.facts;
    n.facts = serverFacts(await n.conn.info());
    n.checkedAt = Date.now();
    return n.facts;
  };

  /** How many replicas must hold this node's writes: 0 when none is there to lose them to; null: never safe. */
  const wanted = async (n: Node, facts: ServerFacts): Promise<number | null> => {
    if (o.mode === "replica") return 1;
    if (!o.sentinelView) return Math.min(1, facts.replicas);
    const view = await o.sentinelView();
    const named =
      view && (view.primaryRunId ? view.primaryRunId === facts.runId : view.primaryAddr === peerOf(n.conn));
    if (!view || !named) {
      o.logger.warn(
        { sentinels: view ? "name another primary" : "no majority" },
        "the Redis server written to is not the primary a majority of the sentinels name; its writes are not relied on",
      );
      return null;
    }
    return Math.min(1, view.replicas);
  };

  /** One node's round: false when the replica (or the disk) did not confirm in time. */
  const confirmOn = async (n: Node): Promise<{ ok: boolean; waited: boolean }> => {
    try {
      const facts = await factsOf(n);
      const want = await wanted(n, facts);
      if (want === null) return { ok: false, waited: true };
      if (want === 0) return { ok: true, waited: false };
      const acked = Number(await n.conn.call("wait", String(want), String(timeoutMs)));
      if (acked < want) return { ok: false, waited: true };
      if (!facts.waitaof) return { ok: true, waited: true };
      try {
        const [local] = (await n.conn.call("waitaof", "1", "0", String(timeoutMs))) as [number, number];
        return { ok: Number(local) >= 1, waited: true };
      } catch (err) {
        // A server older than its version said, or one that renamed the command: WAIT alone.
        if (!/unknown command/i.test((err as Error).message)) throw err;
        facts.waitaof = false;
        return { ok: true, waited: true };
      }
    } catch (err) {
      o.logger.warn({ err: { message: (err as Error).message } }, "redis write confirmation failed");
      return { ok: false, waited: true };
    }
  };

  const round = async (): Promise<boolean> => {
    const results = await Promise.all(connections().map(nodeOf).map(confirmOn));
    waiting = results.some((r) => r.waited);
    const ok = results.every((r) => r.ok);
    if (waiting) last = ok ? "confirmed" : "unconfirmed";
    if (!ok)
      o.logger.warn(
        { timeoutMs },
        "no Redis replica acknowledged the writes that decide posts in time; those posts wait",
      );
    return ok;
  };

  // Group commit: a round answers only the callers that asked before it was sent, since a write made
  // after a WAIT left is not covered by it. Callers arriving meanwhile share the next round.
  let inFlight: Promise<boolean> | null = null;
  let next: Promise<boolean> | null = null;
  const start = (): Promise<boolean> => {
    const p = round().finally(() => {
      if (inFlight === p) inFlight = null;
    });
    inFlight = p;
    return p;
  };

  return {
    confirm() {
      if (o.mode === "off") return Promise.resolve(true);
      if (!inFlight && !next) return start();
      next ??= (inFlight ?? Promise.resolve(true))
        .catch(() => false)
        .then(() => {
          next = null;
          return start();
        });
      return next;
    },
    report: () => ({ mode: o.mode, waiting, last }),
    timeoutMs,
  };
}
