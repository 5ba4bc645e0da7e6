import type { Logger } from "../log.ts";
import type { KeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { DeliveryQueue } from "./queue.ts";

/** Placeholder until the legacy migration lands. */
export async function migrateLegacyData(_o: {
  redis: RedisClient;
  keys: KeyScheme;
  queue: DeliveryQueue;
  logger: Logger;
}) {
  return { workspaces: 0 };
}
