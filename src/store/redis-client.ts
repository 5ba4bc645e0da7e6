import type { Cluster, Redis } from "ioredis";
import { AppError } from "../errors.ts";

/**
 * The Redis client the store works with: one server (`Redis`) or a Redis Cluster (`Cluster`). Code
 * below the composition root takes this type and never assumes which; the few operations that differ
 * (SCAN, multi-key deletes across workspaces) go through the helpers here.
 */
export type RedisClient = Redis | Cluster;

/** True for a Redis Cluster client. */
export function isCluster(client: RedisClient): client is Cluster {
  return (client as { isCluster?: boolean }).isCluster === true;
}

const SLOTS = 16_384;

/**
 * The connections to scan: the server itself, or every master of a cluster. Throws `redis_partial_view`
 * when the client's slot map leaves a slot without a known master (a node down, a reshard under
 * way): a caller that deletes what a scan did not find must not act on half the keyspace.
 */
export async function scanTargets(client: RedisClient): Promise<Redis[]> {
  if (!isCluster(client)) return [client];
  // The slot map arrives with the first connection: wait for it rather than read an empty one.
  if (client.status !== "ready") await client.ping();
  const masters = client.nodes("master");
  const known = new Set(masters.map((n) => `${n.options.host}:${n.options.port}`));
  let uncovered = 0;
  for (let slot = 0; slot < SLOTS; slot++) {
    const owner = client.slots[slot]?.[0];
    if (!owner || !known.has(owner)) uncovered++;
  }
  if (masters.length === 0 || uncovered > 0)
    throw new AppError(
      "redis_partial_view",
      "Not every Redis Cluster master is reachable; nothing was changed.",
      {
        details: { masters: masters.length, uncoveredSlots: uncovered },
      },
    );
  return masters;
}

/**
 * Deletes keys that may live in different hash slots. One UNLINK per key on a cluster (a multi-key
 * UNLINK across slots is refused); one UNLINK for all of them on a single server.
 */
export async function unlinkKeys(client: RedisClient, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  if (!isCluster(client)) return client.unlink(...keys);
  const counts = await Promise.all(keys.map((k) => client.unlink(k)));
  return counts.reduce((t, n) => t + n, 0);
}

/**
 * Whether an error says Redis was not there to answer (a command past its deadline, a connection
 * down or closed, a server loading, demoted or refusing writes it cannot replicate), rather than
 * anything about the command: the same work can succeed once Redis is back.
 */
export function isRedisUnavailable(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown } | null;
  if (e?.name === "MaxRetriesPerRequestError") return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return /^Command timed out|Connection is closed|Stream isn't writeable|^(READONLY|NOREPLICAS|LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN)\b|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Socket timeout/.test(
    message,
  );
}
