import type {
  DocumentNode,
  GraphQLError,
  GraphQLSchema,
  ParseOptions,
  Source,
  ValidationRule,
} from "graphql";
import { keepRecent } from "../../src/bounded-map.ts";
import { graphql } from "./graphql-lib.ts";

/**
 * Parsed and validated documents, kept by their text: a client asks the same few documents over and
 * over (the app's insights query, its slices documents), and parsing and validating one again for
 * every request was a fifth of the emulator's CPU in a storm. Production GraphQL servers keep such
 * a cache too. A document that fails to parse is not kept (its error is thrown again each time);
 * validation errors are kept with the document, so a bad document is refused exactly as before.
 */
export function createDocumentCache(max = 500) {
  const parsed = new Map<string, DocumentNode>();
  const validated = new WeakMap<
    DocumentNode,
    { schema: GraphQLSchema; rules: readonly ValidationRule[]; errors: readonly GraphQLError[] }
  >();
  const same = (a: readonly ValidationRule[], b: readonly ValidationRule[]) =>
    a.length === b.length && a.every((rule, i) => rule === b[i]);
  return {
    parse(source: string | Source, options?: ParseOptions): DocumentNode {
      // Only plain texts with default options are kept: the requests' case.
      if (typeof source !== "string" || options !== undefined) return graphql.parse(source, options);
      const hit = parsed.get(source);
      if (hit) return hit;
      const doc = graphql.parse(source);
      // Oldest first out, so a client sending endless distinct documents cannot grow it.
      keepRecent(parsed, source, doc, max);
      return doc;
    },
    validate(
      schema: GraphQLSchema,
      doc: DocumentNode,
      rules: readonly ValidationRule[] = graphql.specifiedRules,
    ): readonly GraphQLError[] {
      const hit = validated.get(doc);
      // The same document against the same schema and rules is judged the same every time.
      if (hit && hit.schema === schema && same(hit.rules, rules)) return hit.errors;
      const errors = graphql.validate(schema, doc, rules);
      validated.set(doc, { schema, rules: [...rules], errors });
      return errors;
    },
  };
}
