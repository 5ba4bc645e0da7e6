import { WebClient } from "@slack/web-api";
import { SLASH_COMMAND } from "../../commands/index.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { createInstallLayer, type InstallLayer } from "../install/index.ts";
import { createRequestClaims } from "../interactive/claims.ts";
import { type InteractiveJob, type InteractiveOutcome, routeName } from "../interactive/types.ts";
import type { Logger } from "../log.ts";
import { createMetrics, type Metrics } from "../metrics.ts";
import { boltLogger } from "../slack/bolt-logger.ts";
import { SLACK_TIMEOUT_MS } from "../slack/deadline-fetch.ts";
import { countOffloaded, type OffloadedEnv, routeTable, runOffloaded } from "../slack/frame/index.ts";
import { LISTENERS } from "../slack/listeners/index.ts";
import type { SentinelView } from "../store/confirm-writes.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { secretTag } from "../store/secret-tag.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import { inSpan, NO_TRACING, type Tracing } from "../tracing.ts";
import { composeCore } from "./compose.ts";
import { autoPipelined, confirmerFor } from "./redis.ts";

/** Options of createInteractiveRunner. Defaults in brackets. */
export interface InteractiveRunnerOptions {
  config: Config;
  logger: Logger;
  redis: RedisClient;
  /** Redis key prefix of the store (tests use one per file). */
  prefix?: string;
  /** The subscription service of this process (handlers get the same services as on the web side). */
  subscriptions: SubscriptionService;
  metrics?: Metrics;
  /** Bot token per workspace [SLACK_BOT_TOKEN, else the OAuth installation store]. */
  tokenFor?: (ref: WorkspaceRef) => Promise<string>;
  /** Lease of a request's claim [6 s]. */
  claimLeaseMs?: number;
  /**
   * How long a run may hold an insights query's shared-fetch lock [10 s: longer than the 9 s an
   * interactive fetch may take]. A run that died holding it delays its peers' identical query that long.
   */
  insightsLockMs?: number;
  /** Traces: each request's answer continues the trace its ack started [none]. */
  tracing?: Tracing;
  /**
   * What a majority of the sentinels say, for confirming a request's claim before its answer goes out
   * [asked here over connections of its own, on a Sentinel REDIS_URL].
   */
  sentinelView?: () => Promise<SentinelView | null>;
}

/** The bot token of a workspace, looked up where the work runs: jobs never carry one. */
function tokenLookup(
  o: InteractiveRunnerOptions,
  install: InstallLayer | undefined,
): (ref: WorkspaceRef) => Promise<string> {
  if (o.tokenFor) return o.tokenFor;
  const token = o.config.slack.botToken;
  if (token) return async () => token;
  if (install) return install.botToken;
  throw new AppError(
    "config",
    "Digest work needs SLACK_BOT_TOKEN, or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (OAuth).",
    { details: { variables: ["SLACK_BOT_TOKEN"] } },
  );
}

/**
 * Where handed-off requests run (a worker process or a thread): the same services and route table
 * as the web process, a Web API client per bot token, and the requests' claims.
 */
export function createInteractiveRunner(o: InteractiveRunnerOptions): {
  run(job: InteractiveJob): Promise<InteractiveOutcome>;
  /** Ends the connections its services opened; the caller closes the Redis connection it passed. */
  close(): Promise<void>;
} {
  const { config, logger, redis } = o;
  if (!config.keyring) throw new AppError("config", "ENCRYPTION_KEYS is required to compute digests.");
  const metrics = o.metrics ?? createMetrics({ defaultMetrics: false });
  const tracing = o.tracing ?? NO_TRACING;
  const core = composeCore({
    config,
    logger,
    redis,
    keyring: config.keyring,
    prefix: o.prefix,
    subscriptions: o.subscriptions,
    metrics,
    interactive: true,
    insightsLockMs: o.insightsLockMs ?? 10_000,
    tracing,
  });
  const install =
    config.slack.clientId && config.slack.clientSecret
      ? createInstallLayer({ redis, keyring: config.keyring, prefix: o.prefix, logger, slack: config.slack })
      : undefined;
  const deps = install ? { ...core, installerOf: install.installerOf } : core;
  const lookup = tokenLookup(o, install);
  // Each request needs its workspace's token and a client with it: one decryption and one client
  // lookup per workspace every ten seconds, not per request (well inside a rotated token's overlap
  // with the one it replaces).
  const held = new Map<string, { answer: Promise<{ client: WebClient; botToken: string }>; until: number }>();
  const clients = new Map<string, WebClient>();
  const clientOf = (botToken: string): WebClient => {
    // Keyed by a tag of the token, never the token itself.
    const tag = secretTag(botToken);
    let client = clients.get(tag);
    if (!client) {
      client = new WebClient(botToken, {
        slackApiUrl: config.slack.apiUrl,
        logger: boltLogger(logger),
        retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
        timeout: config.slack.timeoutMs ?? SLACK_TIMEOUT_MS,
      });
      if (clients.size > 1_000) clients.clear();
      clients.set(tag, client);
    }
    return client;
  };
  // A request's claim is confirmed like a delivery's (REDIS_CONFIRM_WRITES): its writes go through a
  // connection of their own, since a replica's acknowledgement covers the connection it is asked on.
  const confirming = config.redisConfirmWrites !== "off";
  const decisive = confirming
    ? autoPipelined(
        redis,
        logger,
        "interactive decisive",
        Math.max(config.redisCommandTimeoutMs, config.redisConfirmTimeoutMs + 1_000),
      )
    : redis;
  const confirmation = confirming ? confirmerFor(config, decisive, logger, o.sentinelView) : undefined;
  const confirmer = confirmation?.confirmer;
  const env: OffloadedEnv = {
    deps,
    table: routeTable({ command: SLASH_COMMAND, listeners: LISTENERS }),
    claims: createRequestClaims({ redis: decisive, keys: deps.keys, leaseMs: o.claimLeaseMs, confirmer }),
    slackTimeoutMs: config.slack.timeoutMs,
    clientFor(ref) {
      const key = JSON.stringify(ref);
      const hit = held.get(key);
      if (hit && hit.until > Date.now()) return hit.answer;
      const answer = lookup(ref).then((botToken) => ({ client: clientOf(botToken), botToken }));
      if (held.size > 10_000) held.clear();
      held.set(key, { answer, until: Date.now() + 10_000 });
      answer.catch(() => held.delete(key));
      return answer;
    },
  };
  return {
    async run(job) {
      const outcome = await inSpan(
        tracing.tracer,
        "interactive.answer",
        { "insights.request.kind": job.route.kind, "insights.request.name": routeName(job.route) },
        async (span) => {
          const out = await runOffloaded(env, job);
          span.setAttribute("insights.outcome", out.outcome);
          return out;
        },
        tracing.parentOf(job.tp),
      );
      countOffloaded(metrics, outcome);
      return outcome;
    },
    async close() {
      await core.close();
      confirmation?.close();
      if (decisive !== redis) await decisive.quit().catch(() => decisive.disconnect());
    },
  };
}
