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

/** Redis' eviction policy as the process keeps watching it after the start-up check. */
export interface EvictionWatch {
  /** What /readyz reports: the policy last read ("unknown" while Redis would not say). */
  report(): { maxmemoryPolicy: string };
  /** Why the process must not take work: a policy other than noeviction, unless ALLOW_EVICTION=1. */
  problem(): string | undefined;
  /** Stops the reads. */
  close(): void;
}

/**
 * Reads the policy again every `everyMs` [60 s], whoever asks /readyz: a failover may land on a
 * server configured otherwise, or someone may CONFIG SET it while the app runs. A change to a policy
 * other than noeviction is logged once, as an error, and makes /readyz fail until the policy is
 * noeviction again (which is logged too); with `allowEviction` (ALLOW_EVICTION=1) it is a warning and
 * readiness stays. A read Redis does not answer changes nothing.
 */
export function watchEviction(o: {
  redis: RedisClient;
  first: EvictionCheck;
  allowEviction: boolean;
  logger: Logger;
  everyMs?: number;
}): EvictionWatch {
  let policy = o.first.policy;
  let reading = false;
  const changed = (was: string | null, now: string) => {
    const from = was ?? "unknown";
    if (now === REQUIRED_POLICY)
      o.logger.info(
        { policy: now, was: from },
        `Redis maxmemory-policy is ${REQUIRED_POLICY} now (was ${from})`,
      );
    else if (o.allowEviction)
      o.logger.warn(
        { policy: now, was: from },
        `Redis maxmemory-policy changed from ${from} to ${now}; serving on (ALLOW_EVICTION=1)`,
      );
    else
      o.logger.error(
        { policy: now, was: from },
        `Redis maxmemory-policy changed from ${from} to ${now}: Redis may evict queued jobs, delivery claims, subscriptions and sealed keys; /readyz fails until it is ${REQUIRED_POLICY} again (CONFIG SET maxmemory-policy ${REQUIRED_POLICY}, or ALLOW_EVICTION=1)`,
      );
  };
  const read = async () => {
    if (reading) return;
    reading = true;
    try {
      const r = await readEvictionPolicy(o.redis);
      if (r.policy === null || r.policy === policy) return;
      const was = policy;
      policy = r.policy;
      changed(was, r.policy);
    } finally {
      reading = false;
    }
  };
  const timer = setInterval(() => void read().catch(() => undefined), o.everyMs ?? 60_000);
  timer.unref();
  return {
    report: () => ({ maxmemoryPolicy: policy ?? "unknown" }),
    problem: () =>
      policy === null || policy === REQUIRED_POLICY || o.allowEviction
        ? undefined
        : `Redis maxmemory-policy is ${policy}, not ${REQUIRED_POLICY}`,
    close: () => clearInterval(timer),
  };
}
