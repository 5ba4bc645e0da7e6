import type { Subscription } from "../subscriptions/types.ts";
import type { DigestRequest } from "./digest-service.ts";

/**
 * What a scheduled digest asks for beyond the plain digest, decided in one place so the delivery
 * engine only spreads it into its request: the drivers of the change and the data-gap notices
 * (per subscription, on unless switched off; optional, so a breakdown that fails never costs the
 * digest), and the previous period for the chart's faint line when a chart goes with it.
 *
 * @example digests.build({ ...request, ...scheduledExtras(sub, charts) })
 */
export function scheduledExtras(
  sub: Pick<Subscription, "drivers">,
  withChart: boolean,
): Pick<DigestRequest, "drivers" | "previousSeries"> {
  const drivers = sub.drivers !== false;
  return {
    ...(drivers ? { drivers: "optional" as const } : {}),
    // With drivers the previous period comes with them; without, the chart asks for it alone.
    ...(withChart && !drivers ? { previousSeries: true } : {}),
  };
}
