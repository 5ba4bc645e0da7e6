import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { isCluster, type RedisClient, scanTargets } from "./redis-client.ts";

/**
 * BullMQ's jobs and locks, the delivery claims, the subscriptions and the sealed keys must never be
 * evicted: only `maxmemory-policy noeviction` promises that (writes are refused when memory runs out,
 * and the app reports those errors). Any other policy lets Redis drop them silently under pressure.
 */
export const REQUIRED_POLICY = "noeviction";

/** What Redis says: its policy (on a cluster, the first master's that is not noeviction), or why it could not be read. */
export type EvictionPolicy = { policy: string } | { policy: null; why: string };

/**
 * Reads `maxmemory-policy` from INFO (which managed services that refuse CONFIG still answer), else
 * from CONFIG GET; on a cluster from every master, since each has its own.
 */
export async function readEvictionPolicy(redis: RedisClient): Promise<EvictionPolicy> {
  let nodes: RedisClient[];
  try {
    nodes = isCluster(redis) ? await scanTargets(redis) : [redis];
  } catch (err) {
    return { policy: null, why: (err as Error).message };
  }
  let found = REQUIRED_POLICY;
  for (const node of nodes) {
    const policy = await policyOf(node);
    if (policy.policy === null) return policy;
    if (policy.policy !== REQUIRED_POLICY) found = policy.policy;
  }
  return { policy: found };
}

async function policyOf(node: RedisClient): Promise<EvictionPolicy> {
  const reasons: string[] = [];
  try {
    const m = /^maxmemory_policy:(\S+)/m.exec(await node.info("memory"));
    if (m?.[1]) return { policy: m[1] };
    reasons.push("INFO memory has no maxmemory_policy");
  } catch (err) {
    reasons.push(`INFO: ${(err as Error).message}`);
  }
  try {
    const reply = (await node.config("GET", "maxmemory-policy")) as unknown as string[];
    if (typeof reply?.[1] === "string") return { policy: reply[1] };
    reasons.push("CONFIG GET gave no value");
  } catch (err) {
    reasons.push(`CONFIG GET: ${(err as Error).message}`);
  }
  return { policy: null, why: reasons.join("; ") };
}

/** The start-up check's verdict, kept for /readyz. */
export interface EvictionCheck {
  /** The policy read, or null when Redis would not say. */
  policy: string | null;
  /** True when the policy is noeviction, or another one allowed by ALLOW_EVICTION. */
  ok: boolean;
}

/**
 * The check web and worker run before they take any work: a policy other than noeviction stops the
 * process with one line naming the setting, unless `allowEviction` (ALLOW_EVICTION=1); a Redis that
 * will not tell (CONFIG and INFO both refused, or not reachable yet) gets a warning, not a refusal.
 */
export async function checkEviction(o: {
  redis: RedisClient;
  allowEviction: boolean;
  logger: Logger;
}): Promise<EvictionCheck> {
  const read = await readEvictionPolicy(o.redis);
  if (read.policy === null) {
    o.logger.warn(
      { why: read.why },
      `could not read Redis maxmemory-policy; it must be ${REQUIRED_POLICY} (see docs/operations.md)`,
    );
    return { policy: null, ok: true };
  }
  if (read.policy === REQUIRED_POLICY) return { policy: read.policy, ok: true };
  if (!o.allowEviction)
    throw new AppError(
      "redis_eviction",
      `Redis maxmemory-policy is "${read.policy}": set it to ${REQUIRED_POLICY} (CONFIG SET maxmemory-policy ${REQUIRED_POLICY}, or your provider's parameter), or Redis may evict queued jobs, delivery claims, subscriptions and sealed keys; ALLOW_EVICTION=1 starts anyway.`,
      { details: { policy: read.policy } },
    );
  o.logger.warn(
    { policy: read.policy },
    `Redis maxmemory-policy is not ${REQUIRED_POLICY}; starting anyway (ALLOW_EVICTION=1)`,
  );
  return { policy: read.policy, ok: true };
}

/**
 * What /readyz reports: the start-up check's policy, read again in the background at most once every
 * `everyMs` [60 s] (a failover may land on a server configured otherwise).
 */
export function evictionReport(
  redis: RedisClient,
  first: EvictionCheck,
  everyMs = 60_000,
): () => { maxmemoryPolicy: string } {
  let policy = first.policy;
  let readAt = Date.now();
  let reading = false;
  return () => {
    if (!reading && Date.now() - readAt >= everyMs) {
      reading = true;
      readEvictionPolicy(redis)
        .then((r) => {
          if (r.policy !== null) policy = r.policy;
        })
        .catch(() => undefined)
        .finally(() => {
          reading = false;
          readAt = Date.now();
        });
    }
    return { maxmemoryPolicy: policy ?? "unknown" };
  };
}
