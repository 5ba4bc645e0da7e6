import type { Subscription } from "../subscriptions/types.ts";
import type { DigestRequest } from "./digest-service.ts";

/**
 * What a scheduled digest asks for beyond the plain digest, decided in one place so the delivery
 * engine only spreads it into its request: the drivers of the change and the data-gap notices
 * (per subscription, on unless switched off; optional, so a breakdown that fails never costs the
 * digest), and the subscription's own chart style when it has one (else the workspace's). The chart
 * brings the previous period with it (with the drivers, or alongside the digest's query).
 *
 * @example digests.build({ ...request, ...scheduledExtras(sub) })
 */
export function scheduledExtras(
  sub: Pick<Subscription, "drivers" | "chart">,
): Pick<DigestRequest, "drivers" | "chart"> {
  return {
    ...(sub.drivers !== false ? { drivers: "optional" as const } : {}),
    ...(sub.chart ? { chart: sub.chart } : {}),
  };
}
