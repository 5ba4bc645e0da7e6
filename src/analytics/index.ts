/** Public API of the analytics GraphQL client. */

export { AnalyticsError, codeForStatus, isAnalyticsError, parseRetryAfter } from "./analytics-errors.ts";
export { type AnalyticsClient, type AnalyticsClientOptions, createAnalyticsClient } from "./client.ts";
export { discoverEndpoint, endpointFromConfig } from "./discovery.ts";
export { INTROSPECTION_DOCUMENT, insightsDocument } from "./documents.ts";
export { insightsVariables } from "./input.ts";
export { backoffMs, DEFAULT_RETRY, type RetryPolicy, retryDelayMs } from "./retry.ts";
export { parseInsightsData, parseIntrospectionData } from "./schema.ts";
export type * from "./types.ts";
