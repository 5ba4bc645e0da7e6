import type { ValueNode } from "graphql";
import { isValidDay } from "./days.ts";
import { graphql } from "./graphql-lib.ts";

const { GraphQLError, GraphQLScalarType, Kind } = graphql;

function checked(value: unknown): string {
  if (isValidDay(value)) return value;
  throw new GraphQLError(
    `Date cannot represent ${JSON.stringify(value) ?? String(value)}: expected a calendar day YYYY-MM-DD.`,
    {
      extensions: { code: "BAD_USER_INPUT" },
    },
  );
}

/**
 * `scalar Date`: a calendar day as `YYYY-MM-DD`. Rejects impossible days (2026-02-30), other
 * shapes and words ("yesterday"), in variables and in literals alike.
 */
export const DateScalar = new GraphQLScalarType<string, string>({
  name: "Date",
  description: "A calendar day in UTC, `YYYY-MM-DD`.",
  serialize: checked,
  parseValue: checked,
  parseLiteral(ast: ValueNode) {
    if (ast.kind !== Kind.STRING) {
      throw new GraphQLError(`Date cannot represent a non-string literal (${ast.kind}).`, {
        extensions: { code: "BAD_USER_INPUT" },
      });
    }
    return checked(ast.value);
  },
});
