/**
 * The analytics service's insights reply, as the client hands it on after validation: one entry
 * per day of the range for the daily series, totals for the range (and the equally long period
 * before it for findings and violations), and the values usable as filters.
 */

/** `YYYY-MM-DD` */
export type IsoDay = string;

export interface DailyMetric {
  /** `YYYY-MM-DDT00:00:00`, no zone */
  timeStamp: string;
  findings: number;
  violations: number;
}

export interface DailyActivity {
  timeStamp: string;
  fixedViolations: number;
  mergedViolations: number;
}

export interface PeriodCount {
  previous: number;
  current: number;
}

export interface FilterOption {
  value: string;
  displayValue: string;
}

export interface InsightsFilters {
  scannerId: FilterOption[];
  assetId: FilterOption[];
}

export interface InsightsResult {
  dailyMetric: DailyMetric[];
  dailyActivity: DailyActivity[];
  summary: {
    findings: PeriodCount;
    violations: PeriodCount;
    fixes: number;
    mergedViolations: number;
  };
  /** Absent when the endpoint's schema does not offer `filters` (then the dropdowns say so). */
  filters?: InsightsFilters;
}

export interface InsightsQuery {
  fromDay: IsoDay;
  toDay: IsoDay;
  scannerIds?: string[];
  assetIds?: string[];
  maxRules?: number;
}

/**
 * One part of a batched question: the daily series of one selection over one range, asked as an
 * aliased `insights` field beside others in one request (the drivers' slices).
 */
export interface SliceQuery {
  fromDay: IsoDay;
  toDay: IsoDay;
  /** Empty or absent: no filter. */
  scannerIds?: string[];
  assetIds?: string[];
}

/** A slice's reply: the daily lists only (no summary, no filters are selected). */
export interface SliceSeries {
  dailyMetric: DailyMetric[];
  dailyActivity: DailyActivity[];
}

/** Error codes of the analytics client. */
export type AnalyticsErrorCode =
  | "unauthorized"
  | "rate_limited"
  | "unavailable"
  | "bad_response"
  | "graphql"
  | "bad_request";

/** What introspection of one endpoint tells the client (also used to check an API key). */
export interface AnalyticsIntrospection {
  /** Query root field names, sorted (the service returns them in varying order). */
  queryFields: string[];
  /** Mutation root field names, sorted; null when the schema has no mutation type. */
  mutationFields: string[] | null;
  /** Whether the `insights` result type offers `filters`. */
  filtersSelectable: boolean;
}
