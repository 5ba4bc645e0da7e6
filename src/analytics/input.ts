import { AnalyticsError } from "./analytics-errors.ts";
import { isCalendarDay } from "./schema.ts";
import type { InsightsQuery } from "./types.ts";

/* Checks of caller input: failures are `bad_request` and happen before any I/O. */

/** The insights operation's variables, named as the contract's seed names them. */
export interface InsightsVariables {
  from_day: string;
  to_day: string;
  scannerIdsFilter: string[];
  assetIdsFilter: string[];
  max_rules?: number;
}

/** Checks a query and turns it into the operation's variables. Bad input → `bad_request`, before any I/O. */
export function insightsVariables(q: InsightsQuery): InsightsVariables {
  if (!isCalendarDay(q.fromDay) || !isCalendarDay(q.toDay))
    throw new AnalyticsError("bad_request", "fromDay and toDay must be calendar days written YYYY-MM-DD");
  if (q.fromDay > q.toDay) throw new AnalyticsError("bad_request", "fromDay must not be after toDay");
  const ids = (list: string[] | undefined, name: string) => {
    if (list === undefined) return [];
    if (!list.every((id) => typeof id === "string" && id.length > 0))
      throw new AnalyticsError("bad_request", `${name} must hold non-empty strings`);
    return [...list];
  };
  const vars: InsightsVariables = {
    from_day: q.fromDay,
    to_day: q.toDay,
    // The contract's form for "no filter" is an empty list, not null or an omitted variable.
    scannerIdsFilter: ids(q.scannerIds, "scannerIds"),
    assetIdsFilter: ids(q.assetIds, "assetIds"),
  };
  if (q.maxRules !== undefined) {
    if (!Number.isSafeInteger(q.maxRules) || q.maxRules < 0)
      throw new AnalyticsError("bad_request", "maxRules must be a non-negative integer");
    vars.max_rules = q.maxRules;
  }
  return vars;
}

/**
 * Keys go into a header: a control character or space would make fetch throw with the header
 * value (the key) in its message, so such keys are refused here with a message that has no key.
 */
export function checkKey(apiKey: string): string {
  const key = typeof apiKey === "string" ? apiKey.trim() : "";
  if (!/^[\x21-\x7e]+$/.test(key))
    throw new AnalyticsError("bad_request", "The API key is empty or has characters an API key cannot have");
  return key;
}

/** True for an absolute http(s) URL. */
export function isHttpUrl(url: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
