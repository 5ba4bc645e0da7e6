import type { Account } from "./accounts.ts";
import { graphql } from "./graphql-lib.ts";
import { EmulatorInputError } from "./range.ts";

const { GraphQLError, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLString } = graphql;

/** What every resolver sees: the authenticated account and the day "today" means for this request. */
export type ResolverContext = { account: Account; today: string };

/** Input errors become GraphQL errors with `extensions.code = BAD_USER_INPUT`; others pass through. */
export function asGraphQLError<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof EmulatorInputError) {
      throw new GraphQLError(err.message, { extensions: { code: "BAD_USER_INPUT" } });
    }
    throw err;
  }
}

export const InsightsFiltersInput = new GraphQLInputObjectType({
  name: "InsightsFilters",
  description: "Empty or missing lists mean no filter. Ids the account does not have match nothing.",
  fields: {
    scannerIds: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
    assetIds: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
  },
});
