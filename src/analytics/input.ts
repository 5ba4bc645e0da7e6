import { AnalyticsError } from "./analytics-errors.ts";
import { isCalendarDay } from "./day-stamps.ts";
import { type SliceField, slicesDocument } from "./documents.ts";
import type { InsightsQuery, SliceQuery } from "./types.ts";

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
  checkDays(q);
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

function checkDays(q: { fromDay: string; toDay: string }): void {
  if (!isCalendarDay(q.fromDay) || !isCalendarDay(q.toDay))
    throw new AnalyticsError("bad_request", "fromDay and toDay must be calendar days written YYYY-MM-DD");
  if (q.fromDay > q.toDay) throw new AnalyticsError("bad_request", "fromDay must not be after toDay");
}

function ids(list: string[] | undefined, name: string): string[] {
  if (list === undefined) return [];
  if (!list.every((id) => typeof id === "string" && id.length > 0))
    throw new AnalyticsError("bad_request", `${name} must hold non-empty strings`);
  return [...list];
}

/** A batch of slices as one request: its document, its variables and each slice's alias, in order. */
export interface SlicesRequest {
  document: string;
  variables: Record<string, string | string[] | number>;
  aliases: string[];
}

/** The alias of a batch's `index`th slice field: what the service names in a field's error. */
export const sliceAlias = (index: number): string => `s${index}`;

/** The index a slice alias stands for, or undefined for any other field name. */
export function sliceIndexOf(alias: string): number | undefined {
  const m = /^s(\d+)$/.exec(alias);
  return m ? Number(m[1]) : undefined;
}

/**
 * Checks a batch of slices and writes it as one document of aliased `insights` fields. Ids travel as
 * variables, never inside the document; a day or an id list the batch repeats (the digest's own
 * asset filter in every scanner slice, the window in every field) is sent once.
 */
export function slicesRequest(
  queries: readonly SliceQuery[],
  /** A digest's own question riding along (DIGEST_ALIAS): its variables are the seed's. */
  digest?: { query: InsightsQuery; withFilters: boolean },
): SlicesRequest {
  if (queries.length === 0)
    throw new AnalyticsError("bad_request", "a slices request needs at least one slice");
  const variables: Record<string, string | string[] | number> = digest
    ? { ...insightsVariables(digest.query) }
    : {};
  const dates = new Map<string, string>();
  const lists = new Map<string, string>();
  const dateVar = (day: string) => {
    let name = dates.get(day);
    if (!name) {
      name = `d${dates.size}`;
      dates.set(day, name);
      variables[name] = day;
    }
    return name;
  };
  const listVar = (list: string[]) => {
    const key = JSON.stringify(list);
    let name = lists.get(key);
    if (!name) {
      name = `v${lists.size}`;
      lists.set(key, name);
      variables[name] = list;
    }
    return name;
  };
  const fields: SliceField[] = queries.map((q, i) => {
    checkDays(q);
    return {
      alias: sliceAlias(i),
      fromVar: dateVar(q.fromDay),
      toVar: dateVar(q.toDay),
      scannersVar: listVar(ids(q.scannerIds, "scannerIds")),
      assetsVar: listVar(ids(q.assetIds, "assetIds")),
    };
  });
  return {
    document: slicesDocument(
      fields,
      { dates: [...dates.values()], lists: [...lists.values()] },
      digest ? { withFilters: digest.withFilters } : undefined,
    ),
    variables,
    aliases: fields.map((f) => f.alias),
  };
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
