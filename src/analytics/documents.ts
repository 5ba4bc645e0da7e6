/** Whitespace collapsed: the documents stay readable here and compact on the wire. */
const compact = (doc: string) => doc.replace(/\s+/g, " ").trim();

const FILTERS_SELECTION = "filters { scannerId { value displayValue } assetId { value displayValue } }";

/**
 * The seed's insights operation, variable names and types exactly as the contract shows them.
 * `filters` is added only when introspection of the endpoint says the result type has it.
 */
export function insightsDocument(withFilters: boolean): string {
  return compact(`
    query Insights($from_day: Date, $to_day: Date, $scannerIdsFilter: [String!], $assetIdsFilter: [String!], $max_rules: Int) {
      insights(fromDay: $from_day, toDay: $to_day, maxRules: $max_rules, filters: {scannerIds: $scannerIdsFilter, assetIds: $assetIdsFilter}) {
        dailyMetric { timeStamp violations findings }
        dailyActivity { timeStamp fixedViolations mergedViolations }
        summary { findings { previous current } violations { previous current } fixes mergedViolations }
        ${withFilters ? FILTERS_SELECTION : ""}
      }
    }`);
}

/**
 * Root field names as the contract's introspection shows, plus the insights result type's field
 * names (reached through up to two NON_NULL/LIST wrappers) so one request answers "is `filters`
 * selectable here?".
 */
export const INTROSPECTION_DOCUMENT = compact(`
  query Introspection {
    __schema {
      queryType { fields { name type { fields { name } ofType { fields { name } ofType { fields { name } } } } } }
      mutationType { fields { name } }
    }
  }`);
