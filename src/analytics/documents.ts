/** Whitespace collapsed: the documents stay readable here and compact on the wire. */
const compact = (doc: string) => doc.replace(/\s+/g, " ").trim();

const FILTERS_SELECTION = "filters { scannerId { value displayValue } assetId { value displayValue } }";

/**
 * The seed's insights operation, variable names and types exactly as the contract shows them.
 * `filters` is added only when introspection of the endpoint says the result type has it.
 */
export function insightsDocument(withFilters: boolean): string {
  return compact(`query Insights(${INSIGHTS_VARIABLES}) { ${insightsField(withFilters)} }`);
}

/** The seed's variable declarations, as the contract shows them. */
const INSIGHTS_VARIABLES =
  "$from_day: Date, $to_day: Date, $scannerIdsFilter: [String!], $assetIdsFilter: [String!], $max_rules: Int";

/** The seed's insights field over the seed's variables; `alias` names it in a document of several. */
function insightsField(withFilters: boolean, alias?: string): string {
  return compact(`
      ${alias ? `${alias}: ` : ""}insights(fromDay: $from_day, toDay: $to_day, maxRules: $max_rules, filters: {scannerIds: $scannerIdsFilter, assetIds: $assetIdsFilter}) {
        dailyMetric { timeStamp violations findings }
        dailyActivity { timeStamp fixedViolations mergedViolations }
        summary { findings { previous current } violations { previous current } fixes mergedViolations }
        ${withFilters ? FILTERS_SELECTION : ""}
      }`);
}

/** The alias of a digest's own field when it rides in a slices document. */
export const DIGEST_ALIAS = "digest";

/**
 * The daily lists alone: what a drivers slice needs, under one-letter aliases (standard GraphQL),
 * since the field names would be most of the bytes of a reply of thousands of daily entries.
 * parseSlicesData reads them back under their contract names.
 */
const SERIES_SELECTION =
  "m: dailyMetric { t: timeStamp v: violations f: findings } a: dailyActivity { t: timeStamp x: fixedViolations g: mergedViolations }";

/** What one aliased field of a slices document reads: the names of its variables. */
export interface SliceField {
  alias: string;
  fromVar: string;
  toVar: string;
  scannersVar: string;
  assetsVar: string;
}

/**
 * Several `insights` fields in one document, each under its own alias with its own variables, and
 * selecting only the daily lists the drivers use (never `summary` nor `filters`). Names are ours
 * (`s0`, `d0`, `v0`…), checked so no caller text ever reaches the document.
 */
export function slicesDocument(
  fields: readonly SliceField[],
  vars: { dates: string[]; lists: string[] },
  /** A digest's own field riding along (under DIGEST_ALIAS, on the seed's variables): whether it selects `filters`. */
  digest?: { withFilters: boolean },
): string {
  const name = /^[a-z][a-z0-9]{0,15}$/;
  for (const n of [...vars.dates, ...vars.lists, ...fields.map((f) => f.alias)])
    if (!name.test(n)) throw new Error(`unsafe GraphQL name ${JSON.stringify(n)}`);
  const declared = [
    ...(digest ? [INSIGHTS_VARIABLES] : []),
    ...vars.dates.map((d) => `$${d}: Date`),
    ...vars.lists.map((l) => `$${l}: [String!]`),
  ];
  const body = fields.map(
    (f) =>
      `${f.alias}: insights(fromDay: $${f.fromVar}, toDay: $${f.toVar}, filters: {scannerIds: $${f.scannersVar}, assetIds: $${f.assetsVar}}) { ${SERIES_SELECTION} }`,
  );
  if (digest) body.unshift(insightsField(digest.withFilters, DIGEST_ALIAS));
  return `query DriverSlices(${declared.join(", ")}) { ${body.join(" ")} }`;
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
