import type { Tracer } from "@opentelemetry/api";
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { inSpan, NO_TRACING } from "./tracing.ts";

/**
 * Prometheus metrics, one registry per process (built by the composition root, so tests get their
 * own). Label values are codes and method names only: never ids, names or anything user-typed.
 */
export function createMetrics(
  options: {
    defaultMetrics?: boolean;
    queueDepth?: () => Promise<Record<string, number>>;
    /** Digest requests waiting for the digest executor (read when scraped). */
    interactiveBacklog?: () => Promise<number>;
    /** Seconds the oldest delivery job able to run has waited (read when scraped). */
    oldestWaiting?: () => Promise<number>;
    /** Workspaces with a delivery recorded as failed in the last hour (read when scraped). */
    failingWorkspaces?: () => Promise<number>;
    /** Redis' maxmemory-policy as last read ("unknown" when Redis would not say). */
    evictionPolicy?: () => string;
  } = {},
) {
  const registry = new Registry();
  // The event-loop delay is sampled every 100 ms, not every 10 (the library's default): a timer firing
  // a hundred times a second kept an idle web process busy for 3.5 ms of CPU per second, and a stall
  // worth alerting on lasts far longer than either.
  if (options.defaultMetrics !== false)
    collectDefaultMetrics({ register: registry, prefix: "insights_", eventLoopMonitoringPrecision: 100 });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ) => new Histogram({ name, help, labelNames, buckets, registers: [registry] });
  const commands = counter(
    "insights_commands_total",
    "Slash commands handled, by subcommand and outcome (ok or an error code).",
    ["kind", "outcome"],
  );
  const requests = counter(
    "insights_slack_requests_total",
    "Requests from Slack through the listener frame, by kind (command, action, view, options, event, unrouted) and outcome (ok or an error code).",
    ["kind", "outcome"],
  );
  const appRateLimited = counter(
    "insights_app_rate_limited_total",
    "app_rate_limited events: Slack withholds a workspace's events for the rest of a minute.",
  );
  const digests = counter(
    "insights_digests_total",
    "Digests produced, by surface (command, action, scheduled) and outcome (delivered, failed) with the failure reason.",
    ["surface", "outcome", "reason"],
  );
  const charts = counter(
    "insights_charts_total",
    "Charts of delivered scheduled digests, by outcome (attached, or why the digest went out without it).",
    ["outcome"],
  );
  const analyticsSeconds = histogram(
    "insights_analytics_request_seconds",
    "Analytics GraphQL calls (retries included), by operation and outcome.",
    ["operation", "outcome"],
    [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
  );
  const slackSeconds = histogram(
    "insights_slack_request_seconds",
    "Slack Web API calls made by the worker, by method and outcome.",
    ["method", "outcome"],
    [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
  );
  const queueDepth = options.queueDepth;
  if (queueDepth) {
    new Gauge({
      name: "insights_queue_jobs",
      help: "Delivery jobs in the queue, by state (waiting, prioritized: fanned-out deliveries waiting in priority order, active, delayed, failed).",
      labelNames: ["state"] as const,
      registers: [registry],
      async collect() {
        const counts = await queueDepth().catch(() => ({}) as Record<string, number>);
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
  }
  const interactive = counter(
    "insights_interactive_requests_total",
    "Digest requests handed off the acking event loop, by admission: queued, or busy (answered busy at once, computed later).",
    ["outcome"],
  );
  const interactiveBacklog = options.interactiveBacklog;
  if (interactiveBacklog) {
    new Gauge({
      name: "insights_interactive_backlog",
      help: "Digest requests waiting for a worker or thread; once the oldest has waited INTERACTIVE_BUSY_AFTER_MS (or past INTERACTIVE_BACKLOG of them) new ones are answered busy.",
      registers: [registry],
      async collect() {
        this.set(await interactiveBacklog().catch(() => 0));
      },
    });
  }
  const deliveries = counter(
    "insights_deliveries_total",
    "Verdicts of scheduled deliveries as recorded on their subscriptions: delivered, skipped (the condition was not met, an alert had nothing new) or failed.",
    ["outcome"],
  );
  const deliveryFailures = counter(
    "insights_delivery_failures_total",
    "Deliveries recorded as failed, by where the failure came from (slack, analytics, app) and its code (a fixed set; other codes count as other).",
    ["source", "reason"],
  );
  const deliveryLateness = histogram(
    "insights_delivery_lateness_seconds",
    "Seconds from a scheduled digest's minute to its post (test sends not included).",
    [],
    [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
  );
  const stalledJobs = counter(
    "insights_queue_stalled_jobs_total",
    "Delivery jobs whose lock ran out while active (their worker died or kept its event loop busy past the lock): BullMQ runs them again.",
  );
  const gauge = (name: string, help: string, read: () => Promise<number>) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(await read().catch(() => Number.NaN));
      },
    });
  const { oldestWaiting, failingWorkspaces, evictionPolicy } = options;
  if (oldestWaiting)
    gauge(
      "insights_queue_oldest_waiting_seconds",
      "Seconds the oldest delivery job able to run has waited for a worker (a lower bound; 0 when none waits).",
      oldestWaiting,
    );
  if (failingWorkspaces)
    gauge(
      "insights_failing_workspaces",
      "Workspaces with at least one scheduled delivery recorded as failed in the last hour.",
      failingWorkspaces,
    );
  if (evictionPolicy) {
    new Gauge({
      name: "insights_redis_maxmemory_policy_info",
      help: "Redis' maxmemory-policy as last read (1 for the policy in force); anything but noeviction lets Redis drop jobs, claims and records.",
      labelNames: ["policy"] as const,
      registers: [registry],
      collect() {
        this.reset();
        this.set({ policy: policyLabel(evictionPolicy()) }, 1);
      },
    });
  }
  return {
    registry,
    deliveries,
    deliveryFailures,
    deliveryLateness,
    stalledJobs,
    interactive,
    commands,
    requests,
    appRateLimited,
    digests,
    charts,
    analyticsSeconds,
    slackSeconds,
    /** Times an analytics call; the outcome label is "ok" or the error's code. */
    timeAnalytics<T>(operation: string, work: () => Promise<T>): Promise<T> {
      return timed(work, (outcome, seconds) => analyticsSeconds.observe({ operation, outcome }, seconds));
    },
    /** Times a Slack Web API call; the outcome label is "ok" or Slack's error code. */
    timeSlack<T>(method: string, work: () => Promise<T>): Promise<T> {
      return timed(work, (outcome, seconds) => slackSeconds.observe({ method, outcome }, seconds));
    },
  };
}

async function timed<T>(
  work: () => Promise<T>,
  record: (outcome: string, seconds: number) => void,
): Promise<T> {
  const started = performance.now();
  try {
    const out = await work();
    record("ok", (performance.now() - started) / 1000);
    return out;
  } catch (err) {
    record(codeOf(err), (performance.now() - started) / 1000);
    throw err;
  }
}

/** Redis' eviction policies (and "unknown"): a label from anything else is "other". */
const POLICIES = new Set([
  "noeviction",
  "allkeys-lru",
  "allkeys-lfu",
  "allkeys-random",
  "volatile-lru",
  "volatile-lfu",
  "volatile-random",
  "volatile-ttl",
  "unknown",
]);
const policyLabel = (policy: string) => (POLICIES.has(policy) ? policy : "other");

/** An error's code for a label: our AppError codes, Slack's `data.error`, else "error". */
export function codeOf(err: unknown): string {
  const e = err as { code?: unknown; data?: { error?: unknown } };
  const code =
    typeof e?.data?.error === "string" ? e.data.error : typeof e?.code === "string" ? e.code : "error";
  return /^[a-z_]{1,40}$/.test(code) ? code : "error";
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Analytics calls timed into `insights_analytics_request_seconds` (and traced), same interface. */
export function instrumentAnalytics<
  C extends {
    insights: (...a: never[]) => Promise<unknown>;
    slices: (...a: never[]) => Promise<unknown>;
    insightsWithSlices: (...a: never[]) => Promise<unknown>;
    introspect: (...a: never[]) => Promise<unknown>;
    verifyKey: (...a: never[]) => Promise<unknown>;
  },
>(client: C, metrics: Metrics, tracer: Tracer = NO_TRACING.tracer): C {
  // A span per call (retries inside it), named by operation: no key, no query text, no filter in it.
  const wrap =
    <F extends (...a: never[]) => Promise<unknown>>(name: string, f: F) =>
    (...args: Parameters<F>) =>
      inSpan(tracer, `analytics.${name}`, { "insights.analytics.operation": name }, () =>
        metrics.timeAnalytics(name, () => f(...args)),
      );
  return {
    ...client,
    insights: wrap("insights", client.insights.bind(client)),
    slices: wrap("slices", client.slices.bind(client)),
    insightsWithSlices: wrap("insights_with_slices", client.insightsWithSlices.bind(client)),
    introspect: wrap("introspect", client.introspect.bind(client)),
    verifyKey: wrap("verify_key", client.verifyKey.bind(client)),
  };
}

/**
 * The process's metrics text: its own registry, summed with `others` (the registries of its digest
 * threads, as `getMetricsAsJSON()` gives them) when there are any.
 */
async function exposition(metrics: Metrics, others?: () => Promise<unknown[][]>): Promise<string> {
  const extra = (await others?.().catch(() => [])) ?? [];
  if (extra.length === 0) return metrics.registry.metrics();
  const own = await metrics.registry.getMetricsAsJSON();
  return AggregatorRegistry.aggregate([own, ...extra] as object[]).metrics();
}

/** The `/metrics` handler for node:http and Bolt's custom routes. */
export function metricsHandler(metrics: Metrics, others?: () => Promise<unknown[][]>) {
  return (_req: unknown, res: import("node:http").ServerResponse) => {
    exposition(metrics, others).then(
      (text) => {
        res.writeHead(200, { "content-type": metrics.registry.contentType });
        res.end(text);
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  };
}
