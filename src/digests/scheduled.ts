import { conditionOf } from "../subscriptions/run-verdict.ts";
import type { Subscription } from "../subscriptions/types.ts";
import type { DigestRequest } from "./digest-service.ts";

/**
 * What a scheduled digest asks for beyond the plain digest, decided in one place so the delivery
 * engine only spreads it into its request: the drivers of the change and the data-gap notices
 * (per subscription, on unless switched off; optional, so a breakdown that fails never costs the
 * digest), the subscription's own chart style when it has one (else the workspace's; the chart
 * brings the previous period with it, with the drivers or alongside the digest's query), and the
 * weekday series an `unusual` condition judges. Its slices are first asked for their windows (the
 * periods and the gap rule's baseline): with the account's lists held, they ride with the digest's own
 * question, and no second request is needed for a silence's baseline. An alert's check shows no breakdown (a firing alert
 * asks for its own, against what it fired on), so it asks for none.
 *
 * @example digests.build({ ...request, ...scheduledExtras(sub) })
 */
export function scheduledExtras(
  sub: Pick<Subscription, "drivers" | "chart" | "condition" | "mode">,
): Pick<DigestRequest, "drivers" | "driversFirstAsk" | "chart" | "weekday"> {
  const chart = sub.chart ? { chart: sub.chart } : {};
  const weekday = conditionOf(sub)?.kind === "unusual" ? { weekday: true } : {};
  if (sub.mode === "alert") return { ...chart, ...weekday };
  return {
    ...(sub.drivers !== false ? { drivers: "optional" as const, driversFirstAsk: "window" as const } : {}),
    ...chart,
    ...weekday,
  };
}
