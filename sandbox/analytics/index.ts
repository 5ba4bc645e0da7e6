/**
 * The analytics GraphQL emulator: a stand-in for the platform's analytics service, used by tests,
 * the demo and anyone without an account. See README.md beside this file.
 */
export {
  type Account,
  type AccountSpec,
  accountFor,
  BUILT_IN_KEYS,
  buildAccount,
  DEMO_API_KEY,
  SECOND_API_KEY,
} from "./accounts.ts";
export { type Counts, dailyCounts, warmCounts } from "./counts.ts";
export type { Fault, FaultRates } from "./faults.ts";
export { computeInsights, type InsightsArgs } from "./insights.ts";
export { type DayRange, EmulatorInputError, MAX_RANGE_DAYS, previousRange, resolveRange } from "./range.ts";
export { SCENARIO_KEYS, SCENARIOS, type Scenario, type ScenarioKind, scenarioOf } from "./scenarios.ts";
export { createAnalyticsSchema } from "./schema.ts";
export {
  type RawReply,
  rawHttp,
  SEED_INSIGHTS_QUERY,
  SEED_INTROSPECTION_QUERY,
  seedPost,
} from "./seed-request.ts";
export { CONFIG_PATH, type Emulator, type EmulatorOptions, GRAPHQL_PATH, startEmulator } from "./server.ts";
