import type { DigestService } from "../digests/digest-service.ts";
import { todayIn } from "../insights/dayjs.ts";
import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { periodTime } from "../subscriptions/period.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";

/**
 * A firing slot's drivers, planned while it fans out: for each page of a workspace's members, the
 * subscriptions are read and the digests their deliveries will build (range at the fire time, zone,
 * filters; drivers on) are handed to the digest service to plan and compute ahead. Never in the
 * fan-out's way: it is not awaited, and a failure only means each delivery computes its own.
 *
 * Also run before the fire (slot-lookahead.ts): then a digest whose day has not begun yet in its zone
 * is left for the fan-out (the service would be asked for a day that has no data yet).
 */
export function createSlotWarmup(deps: {
  store: Pick<SubscriptionStore, "get">;
  digests: Pick<DigestService, "warmDrivers">;
  logger: Logger;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  return (ref: WorkspaceRef, members: readonly [string, string][], period: string): void => {
    const asOf = periodTime(period);
    if (!asOf || members.length === 0) return;
    const now = clock();
    const begun = (tz: string) => asOf <= now || todayIn(asOf, tz) === todayIn(now, tz);
    void (async () => {
      const subs = await Promise.all(members.map(([id]) => deps.store.get(ref, id)));
      const digests = subs.flatMap((sub) =>
        // A subscription to asset groups learns its assets as it is built: nothing to warm by id.
        sub && sub.status === "active" && sub.drivers !== false && !sub.assetGroups?.length && begun(sub.tz)
          ? [{ range: sub.range, tz: sub.tz, now: asOf, assetIds: sub.assetIds, scannerIds: sub.scannerIds }]
          : [],
      );
      await deps.digests.warmDrivers(ref, digests);
    })().catch((err: unknown) => deps.logger.warn({ err }, "slot drivers warm-up failed"));
  };
}
