import { parseRedisUrl } from "../config.ts";
import type { RedisClient } from "./redis-client.ts";

/**
 * What /readyz says about a Sentinel deployment's primary: its `min-replicas-to-write` and
 * `min-replicas-max-lag`. At 0 (Redis' default) a primary cut off from its replicas and sentinels
 * keeps taking writes for as long as the cut lasts, and a failover throws them all away when it
 * rejoins: BullMQ's job states, locks and every record the app wrote there. The delivery claims wait
 * for a replica themselves (store/confirm-writes.ts), so no digest goes out twice on a lost claim; the
 * rest comes back as reruns and retries, and exactly once then rests on those claims alone.
 *
 * It is a warning, not a 503: readiness decides where traffic goes, and a setting on the primary is
 * the same for every process of the app; failing all of them would take the whole app out of
 * service over advice.
 */
export interface ReplicationReport {
  minReplicasToWrite: number | "unknown";
  minReplicasMaxLag: number | "unknown";
  /** Present when the setting leaves acknowledged writes to be lost on a failover. */
  warning?: string;
}

export const MIN_REPLICAS_WARNING =
  "min-replicas-to-write is 0 on the Redis primary: cut off from its replicas it keeps accepting writes that a failover then discards (set min-replicas-to-write 1 and min-replicas-max-lag 10; docs/redis-faults.md)";

const configValue = async (redis: RedisClient, name: string): Promise<number | "unknown"> => {
  try {
    const reply = (await redis.config("GET", name)) as unknown as string[];
    const n = Number(reply?.[1]);
    return reply?.[1] !== undefined && Number.isFinite(n) ? n : "unknown";
  } catch {
    // Managed services often refuse CONFIG: the report says it does not know rather than guess.
    return "unknown";
  }
};

/** Reads the primary's two settings (through a connection that reaches the primary). */
export async function readReplicationSettings(redis: RedisClient): Promise<ReplicationReport> {
  const [minReplicasToWrite, minReplicasMaxLag] = await Promise.all([
    configValue(redis, "min-replicas-to-write"),
    configValue(redis, "min-replicas-max-lag"),
  ]);
  return {
    minReplicasToWrite,
    minReplicasMaxLag,
    ...(minReplicasToWrite === 0 ? { warning: MIN_REPLICAS_WARNING } : {}),
  };
}

/**
 * What /readyz adds on a Sentinel deployment: the settings as last read, read again in the background
 * at most once every `everyMs` [60 s] (a failover lands on another server, configured on its own).
 */
export function replicationReport(
  redis: RedisClient,
  everyMs = 60_000,
): () => { replication: ReplicationReport } {
  let last: ReplicationReport = { minReplicasToWrite: "unknown", minReplicasMaxLag: "unknown" };
  let readAt = 0;
  let reading = false;
  const read = () => {
    reading = true;
    readReplicationSettings(redis)
      .then((r) => {
        last = r;
      })
      .catch(() => undefined)
      .finally(() => {
        reading = false;
        readAt = Date.now();
      });
  };
  read();
  return () => {
    if (!reading && Date.now() - readAt >= everyMs) read();
    return { replication: last };
  };
}

/** `report` with the replication settings added when `redisUrl` names a Sentinel deployment. */
export function withReplication<T extends Record<string, unknown>>(
  report: () => T,
  redis: RedisClient,
  redisUrl: string | undefined,
): () => T | (T & { replication: ReplicationReport }) {
  if (redisUrl === undefined || parseRedisUrl(redisUrl).kind !== "sentinel") return report;
  const replication = replicationReport(redis);
  return () => ({ ...report(), ...replication() });
}
