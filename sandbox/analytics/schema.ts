import type { GraphQLFieldConfig, GraphQLObjectType as ObjectType, GraphQLSchema as Schema } from "graphql";
import { DateScalar } from "./date-scalar.ts";
import { graphql } from "./graphql-lib.ts";
import { computeInsights, type InsightsArgs } from "./insights.ts";
import { otherRootFields } from "./other-fields.ts";
import { asGraphQLError, InsightsFiltersInput, type ResolverContext } from "./schema-common.ts";
import { int, listOf, nn, objectType, str } from "./schema-types.ts";

const { GraphQLInt, GraphQLObjectType, GraphQLSchema } = graphql;

export type { ResolverContext } from "./schema-common.ts";

const DailyMetric = objectType("DailyMetric", { timeStamp: str, violations: int, findings: int });
const DailyActivity = objectType("DailyActivity", {
  timeStamp: str,
  fixedViolations: int,
  mergedViolations: int,
});
const PeriodCount = objectType("PeriodCount", { previous: int, current: int });
const Summary = objectType("InsightsSummary", {
  findings: nn(PeriodCount),
  violations: nn(PeriodCount),
  fixes: int,
  mergedViolations: int,
});
const FilterOption = objectType("FilterOption", { value: str, displayValue: str });
const FilterOptions = objectType("InsightsFilterOptions", {
  scannerId: listOf(FilterOption),
  assetId: listOf(FilterOption),
});

function insightsType(withFilters: boolean): ObjectType {
  return new GraphQLObjectType({
    name: "Insights",
    fields: {
      dailyMetric: { type: listOf(DailyMetric) },
      dailyActivity: { type: listOf(DailyActivity) },
      summary: { type: nn(Summary) },
      ...(withFilters ? { filters: { type: nn(FilterOptions) } } : {}),
    },
  });
}

function insightsField(withFilters: boolean): GraphQLFieldConfig<unknown, ResolverContext> {
  return {
    type: insightsType(withFilters),
    args: {
      fromDay: { type: DateScalar },
      toDay: { type: DateScalar },
      maxRules: { type: GraphQLInt },
      filters: { type: InsightsFiltersInput },
    },
    resolve: (_root, args, ctx) =>
      asGraphQLError(() => computeInsights(ctx.account, args as InsightsArgs, ctx.today)),
  };
}

/**
 * The analytics schema: six query root fields, no mutation type. `withFilters: false` builds the
 * variant without `Insights.filters`, for testing clients against endpoints that lack it.
 */
export function createAnalyticsSchema(options: { withFilters?: boolean } = {}): Schema {
  const withFilters = options.withFilters ?? true;
  const { projectsPosture, topRepositories, coverage, scanMetrics, scanSummaryMetrics } = otherRootFields();
  const query = new GraphQLObjectType<unknown, ResolverContext>({
    name: "Query",
    fields: {
      projectsPosture,
      topRepositories,
      insights: insightsField(withFilters),
      coverage,
      scanMetrics,
      scanSummaryMetrics,
    },
  });
  return new GraphQLSchema({ query, types: [DateScalar] });
}
