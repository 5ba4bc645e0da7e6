import { createRequire } from "node:module";
import type * as GraphQL from "graphql";

/**
 * The one `graphql` instance the emulator builds its schema with: the CommonJS build, which is
 * what graphql-http loads. graphql 16 ships both `index.js` and `index.mjs` without an `exports`
 * map, and bundler-style resolvers (vitest/vite) pick `index.mjs` for our sources while Node gives
 * graphql-http `index.js`; a schema from one instance fails graphql-http's `instanceof` checks in the
 * other ("Cannot use GraphQLSchema from another module or realm"). Requiring it here pins both to one.
 */
export const graphql: typeof GraphQL = createRequire(import.meta.url)("graphql");
