/** The pure digest core: ranges, deltas, series repair, trend, number formatting, drivers and data gaps. */

export {
  type AssetGroup,
  assetIdsOfGroups,
  groupAssets,
  groupNameOf,
  groupsGoneText,
  missingGroups,
} from "./asset-groups.ts";
export { computeDigest } from "./compute-digest.ts";
export { assertTimeZone, dayjs, todayIn } from "./dayjs.ts";
export {
  addDays,
  daysInclusive,
  enumerateDays,
  fromEpochDay,
  isIsoDayShape,
  isoWeekday,
  isValidIsoDay,
  startOfMonth,
  toEpochDay,
} from "./days.ts";
export { delta, type Polarity } from "./delta.ts";
export {
  type Breakdown,
  breakdownOf,
  type Contribution,
  computeDrivers,
  type Dimension,
  type Drivers,
  type DriversInput,
  type Slice,
  topDriver,
} from "./drivers.ts";
export {
  type CountFormat,
  directionMark,
  formatCount,
  formatPct,
  formatRate,
  formatSigned,
  MINUS,
} from "./format.ts";
export {
  type ActivitySeries,
  type Completeness,
  completenessOf,
  type DataGap,
  DEFAULT_GAP_RULE,
  findGaps,
  type GapContext,
  type GapRule,
} from "./gaps.ts";
export { formatRangeLabel } from "./labels.ts";
export { partialFrom } from "./partial-day.ts";
export {
  addSeries,
  MEASURES,
  type Measure,
  type MeasureTotals,
  type PeriodPair,
  type Periods,
  totalsOf,
} from "./period-totals.ts";
export { RangeParseError, type RangeParseReason, TimezoneError } from "./range-errors.ts";
export {
  acceptedRangesText,
  DEFAULT_RANGE,
  isRangeToken,
  MAX_LAST_DAYS,
  MAX_RANGE_DAYS,
  MIN_RANGE_DAY,
  matchRangeSpec,
  normalizeRangeText,
  RANGE_EXAMPLES,
  type RangeExample,
  type RangeSpec,
  rangeExamples,
} from "./range-grammar.ts";
export { buildRange, parseRange, type RangeContext } from "./ranges.ts";
export { repairSeries, type SeriesInput } from "./series.ts";
export { bucketValues, MAX_SPARK_WIDTH, SPARK_LEVELS, sparkline } from "./sparkline.ts";
export { dayOfTimeStamp } from "./timestamps.ts";
export { computeTrend } from "./trend.ts";
export type * from "./types.ts";
