import type {
  GraphQLFieldConfig,
  GraphQLNullableType,
  GraphQLObjectType as ObjectType,
  GraphQLSchema as Schema,
} from "graphql";
import { DateScalar } from "./date-scalar.ts";
import { graphql } from "./graphql-lib.ts";
import { computeInsights, type InsightsArgs } from "./insights.ts";
import { otherRootFields } from "./other-fields.ts";
import { asGraphQLError, InsightsFiltersInput, type ResolverContext } from "./schema-common.ts";

const { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } = graphql;

export type { ResolverContext } from "./schema-common.ts";

const nn = <T extends GraphQLNullableType>(t: T) => new GraphQLNonNull(t);
const int = nn(GraphQLInt);
const str = nn(GraphQLString);

const DailyMetric = new GraphQLObjectType({
  name: "DailyMetric",
  fields: { timeStamp: { type: str }, violations: { type: int }, findings: { type: int } },
});
const DailyActivity = new GraphQLObjectType({
  name: "DailyActivity",
  fields: { timeStamp: { type: str }, fixedViolations: { type: int }, mergedViolations: { type: int } },
});
const PeriodCount = new GraphQLObjectType({
  name: "PeriodCount",
  fields: { previous: { type: int }, current: { type: int } },
});
const Summary = new GraphQLObjectType({
  name: "InsightsSummary",
  fields: {
    findings: { type: nn(PeriodCount) },
    violations: { type: nn(PeriodCount) },
    fixes: { type: int },
    mergedViolations: { type: int },
  },
});
const FilterOption = new GraphQLObjectType({
  name: "FilterOption",
  fields: { value: { type: str }, displayValue: { type: str } },
});
const FilterOptions = new GraphQLObjectType({
  name: "InsightsFilterOptions",
  fields: {
    scannerId: { type: nn(new GraphQLList(nn(FilterOption))) },
    assetId: { type: nn(new GraphQLList(nn(FilterOption))) },
  },
});

function insightsType(withFilters: boolean): ObjectType {
  return new GraphQLObjectType({
    name: "Insights",
    fields: {
      dailyMetric: { type: nn(new GraphQLList(nn(DailyMetric))) },
      dailyActivity: { type: nn(new GraphQLList(nn(DailyActivity))) },
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
