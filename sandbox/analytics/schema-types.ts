import type { GraphQLNullableType, GraphQLOutputType, GraphQLObjectType as ObjectType } from "graphql";
import { graphql } from "./graphql-lib.ts";

const { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString } = graphql;

/** The emulator's output types, written as briefly as the contract's SDL states them. */
export const nn = <T extends GraphQLNullableType>(t: T) => new GraphQLNonNull(t);
export const int = nn(GraphQLInt);
export const str = nn(GraphQLString);
/** A non-null list of non-null `t`, the contract's way with every list. */
export const listOf = <T extends GraphQLNullableType>(t: T) => nn(new GraphQLList(nn(t)));

/**
 * An output type whose fields take no arguments and resolve to the property of the same name, as
 * every type below the root fields does: written as field name → type.
 */
export function objectType(
  name: string,
  fields: Record<string, GraphQLOutputType>,
  description?: string,
): ObjectType {
  return new GraphQLObjectType({
    name,
    ...(description ? { description } : {}),
    fields: Object.fromEntries(Object.entries(fields).map(([field, type]) => [field, { type }])),
  });
}
