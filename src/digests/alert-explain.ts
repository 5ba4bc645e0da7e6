import type { ExplanationView } from "../../templates/alert-message.ts";
import type { Measure, Periods } from "../insights/period-totals.ts";
import type { ResolvedRange } from "../insights/types.ts";
import { dayWords, type UnusualJudgement, weekdayName } from "../insights/unusual.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { DigestService } from "./digest-service.ts";

/**
 * What an alert's explanation compares. An `unusual` alert fired on one day against its weekday's
 * band, so the day is compared with the earlier same weekday closest to the band's median (a usual
 * one, named as such); any other alert, with its digest's range against the period before it.
 */
export interface ExplainTarget {
  periods: Periods;
  label: string;
  measure: Measure;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** The periods and the words of an alert's explanation. */
export function explainTarget(
  range: ResolvedRange,
  measure: Measure,
  unusual?: UnusualJudgement,
): ExplainTarget {
  if (unusual?.kind === "judged") {
    const { day, typical } = unusual;
    return {
      periods: { from: day, to: day, previousFrom: typical.day, previousTo: typical.day },
      label: `${dayWords(day)} against ${dayWords(typical.day)} (${fmt(typical.value)} ${measure}), the most typical of the last ${unusual.weeks} ${weekdayName(day)}s`,
      measure,
    };
  }
  const { from, to, previousFrom, previousTo } = range;
  return {
    periods: { from, to, previousFrom, previousTo },
    label: `${range.label} against ${range.previousLabel}`,
    measure,
  };
}

/**
 * The drivers of what an alert compares, through the digest service's shared drivers machinery.
 * Fails as the breakdown fails (typed errors with a code); callers that can go without it catch.
 */
export async function explainAlert(
  digests: Pick<DigestService, "drivers">,
  req: { ref: WorkspaceRef; tz: string; now: Date; assetIds: string[]; scannerIds: string[] },
  target: ExplainTarget,
): Promise<ExplanationView> {
  const drivers = await digests.drivers({ ...req, periods: target.periods });
  return { label: target.label, measure: target.measure, drivers };
}
