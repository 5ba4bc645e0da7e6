import { nodeFetch } from "../http-client.ts";
import { type Logger, silentLogger } from "../log.ts";
import { AnalyticsError } from "./analytics-errors.ts";
import { discoverEndpoint } from "./discovery.ts";
import { DIGEST_ALIAS, INTROSPECTION_DOCUMENT, insightsDocument } from "./documents.ts";
import { checkKey, insightsVariables, isHttpUrl, slicesRequest } from "./input.ts";
import { createIntrospectionCache } from "./introspection-cache.ts";
import { DEFAULT_RETRY, type RetryPolicy, sleep as realSleep, withRetry } from "./retry.ts";
import { safeUrl } from "./sanitize.ts";
import { parseInsightsData, parseIntrospectionData, parseSlicesData } from "./schema.ts";
import { postGraphql } from "./transport.ts";
import type {
  AnalyticsIntrospection,
  InsightsQuery,
  InsightsResult,
  SliceQuery,
  SliceSeries,
} from "./types.ts";

/** Options of createAnalyticsClient. Defaults in brackets. */
export interface AnalyticsClientOptions {
  /** The full GraphQL endpoint; wins over discovery. */
  graphqlUrl?: string;
  /** The web app whose `/config.js` names the GraphQL URL (used when graphqlUrl is unset). */
  appUrl?: string;
  /** Backend service whose endpoint discovery looks for ["analytics"]. */
  service?: string;
  /** Per-request timeout [8000 ms]. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
  /** Injectable for fast tests. */
  sleep?: (ms: number) => Promise<void>;
  /** In [0, 1); drives the backoff jitter [Math.random]. */
  random?: () => number;
  /** Clock for the retry budget and the introspection cache [Date.now]. */
  now?: () => number;
  logger?: Logger;
  /** How long an endpoint's introspection answer is reused [10 minutes]. */
  introspectionTtlMs?: number;
}

export interface AnalyticsClient {
  /** The GraphQL endpoint: configured, or discovered once and cached (a failed discovery is retried next call). */
  endpoint(): Promise<string>;
  /**
   * The insights numbers for a range, validated; `filters` only where the endpoint offers it, and
   * not asked for with `lists: false` (the caller holds the account's lists already).
   */
  insights(apiKey: string, q: InsightsQuery, opts?: { lists?: boolean }): Promise<InsightsResult>;
  /**
   * The daily series of several selections in one request (aliased `insights` fields, daily lists
   * only), in the order asked. A GraphQL error fails the whole batch; its `failedFields` name the
   * aliases (`s<index>`) the service refused.
   */
  slices(apiKey: string, queries: readonly SliceQuery[]): Promise<SliceSeries[]>;
  /**
   * A digest's own insights question and several slices in one request: the digest's field as
   * `insights` asks it (under the alias `digest`), then the slices as `slices` asks them. A GraphQL
   * error fails the whole request; its `failedFields` name `digest` and the slice aliases refused.
   */
  insightsWithSlices(
    apiKey: string,
    q: InsightsQuery,
    opts: { lists?: boolean } | undefined,
    queries: readonly SliceQuery[],
  ): Promise<{ insights: InsightsResult; slices: SliceSeries[] }>;
  /** Root fields and whether `filters` is selectable; cached per endpoint unless `fresh`. */
  introspect(apiKey: string, opts?: { fresh?: boolean }): Promise<AnalyticsIntrospection>;
  /** Resolves when the key is accepted; AnalyticsError("unauthorized") when it is not. */
  verifyKey(apiKey: string): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_INTROSPECTION_TTL_MS = 10 * 60_000;

/**
 * The analytics GraphQL client. Holds no key: every call takes the workspace's key,
 * so one client serves all workspaces.
 *
 * @example
 * const client = createAnalyticsClient({ appUrl: config.analytics.appUrl, timeoutMs: config.analytics.timeoutMs, logger });
 * const result = await client.insights(apiKey, { fromDay: "2026-11-01", toDay: "2026-11-07" });
 */
export function createAnalyticsClient(options: AnalyticsClientOptions): AnalyticsClient {
  const service = options.service ?? "analytics";
  const fetchImpl = options.fetch ?? globalThis.fetch;
  // The GraphQL posts, by the thousand on a busy worker, skip the global fetch's per-request cost.
  const postFetch = options.fetch ?? nodeFetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger();
  const retryCtx = {
    policy: { ...DEFAULT_RETRY, ...options.retry },
    timeoutMs,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    now,
    logger,
  };
  if (!options.graphqlUrl && !options.appUrl)
    throw new AnalyticsError("bad_request", "The analytics client needs graphqlUrl or appUrl");
  for (const [name, url] of [
    ["graphqlUrl", options.graphqlUrl],
    ["appUrl", options.appUrl],
  ] as const)
    if (url !== undefined && !isHttpUrl(url))
      throw new AnalyticsError("bad_request", `The analytics client's ${name} is not an http(s) URL`);

  let endpointPromise: Promise<string> | undefined;
  const introspections = createIntrospectionCache(
    options.introspectionTtlMs ?? DEFAULT_INTROSPECTION_TTL_MS,
    now,
  );

  function endpoint(): Promise<string> {
    if (options.graphqlUrl) return Promise.resolve(options.graphqlUrl);
    const appUrl = options.appUrl ?? "";
    endpointPromise ??= withRetry((ms) => discoverEndpoint(appUrl, service, fetchImpl, ms), {
      ...retryCtx,
      label: { op: "discovery", appUrl: safeUrl(appUrl) },
    }).then(
      (url) => {
        logger.info({ service, endpoint: safeUrl(url) }, "analytics endpoint discovered");
        return url;
      },
      (err: unknown) => {
        endpointPromise = undefined;
        throw err;
      },
    );
    return endpointPromise;
  }

  async function call(apiKey: string, op: string, query: string, variables: Record<string, unknown>) {
    const key = checkKey(apiKey);
    const url = await endpoint();
    const shownUrl = safeUrl(url);
    const started = now();
    try {
      const data = await withRetry(
        (ms) =>
          postGraphql({ url, shownUrl, apiKey: key, query, variables, timeoutMs: ms, fetch: postFetch, now }),
        { ...retryCtx, label: { op, endpoint: shownUrl } },
      );
      logger.debug({ op, endpoint: shownUrl, ms: now() - started }, "analytics request done");
      return { url, data };
    } catch (err) {
      if (err instanceof AnalyticsError)
        logger.warn(
          { op, endpoint: shownUrl, code: err.code, status: err.status, ms: now() - started },
          err.message,
        );
      throw err;
    }
  }

  async function introspect(apiKey: string, opts: { fresh?: boolean } = {}): Promise<AnalyticsIntrospection> {
    const key = checkKey(apiKey);
    const load = () =>
      call(key, "introspection", INTROSPECTION_DOCUMENT, {}).then(({ data }) => parseIntrospectionData(data));
    return introspections.get(await endpoint(), load, opts.fresh);
  }

  /** Whether to select `filters`. An endpoint that refuses or garbles introspection still gets the digest. */
  async function filtersSelectable(apiKey: string): Promise<boolean> {
    try {
      return (await introspect(apiKey)).filtersSelectable;
    } catch (err) {
      if (!(err instanceof AnalyticsError) || (err.code !== "graphql" && err.code !== "bad_response"))
        throw err;
      logger.warn({ code: err.code }, "analytics introspection failed; querying insights without filters");
      return false;
    }
  }

  return {
    endpoint,
    introspect,
    async insights(apiKey, q, opts) {
      const variables = insightsVariables(q);
      const withFilters = opts?.lists !== false && (await filtersSelectable(apiKey));
      const { data } = await call(apiKey, "insights", insightsDocument(withFilters), { ...variables });
      return parseInsightsData(data, withFilters);
    },
    async slices(apiKey, queries) {
      const request = slicesRequest(queries);
      const { data } = await call(apiKey, "slices", request.document, request.variables);
      return parseSlicesData(data, request.aliases);
    },
    async insightsWithSlices(apiKey, q, opts, queries) {
      const withFilters = opts?.lists !== false && (await filtersSelectable(apiKey));
      const request = slicesRequest(queries, { query: q, withFilters });
      const { data } = await call(apiKey, "slices", request.document, request.variables);
      const own =
        typeof data === "object" && data !== null ? (data as Record<string, unknown>)[DIGEST_ALIAS] : null;
      return {
        insights: parseInsightsData({ insights: own }, withFilters),
        slices: parseSlicesData(data, request.aliases),
      };
    },
    async verifyKey(apiKey) {
      await introspect(apiKey, { fresh: true });
    },
  };
}
