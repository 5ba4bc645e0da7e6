import type { WebHandle } from "../src/app/web.ts";
import type { WorkerHandle, WorkerOptions } from "../src/app/worker.ts";
import type { Config } from "../src/config.ts";
import type { Logger } from "../src/log.ts";
import type { RedisClient } from "../src/store/redis-client.ts";
import type { SubscriptionLimits } from "../src/subscriptions/validate.ts";
import type { Tracing } from "../src/tracing.ts";
import { DEMO_API_KEY, type Emulator, type EmulatorOptions, startEmulator } from "./analytics/index.ts";
import { keepingDestination } from "./log-dir.ts";
import {
  type Clock,
  clockOf,
  connectRedis,
  createLogger,
  formatKeyring,
  generateKeyring,
  loadConfig,
  startWeb,
  startWorker,
  systemClock,
  utcDayOf,
} from "./product.ts";
import { freePort } from "./redis.ts";
import {
  DEMO,
  DEMO_APP_TOKEN,
  type SlackStandIn,
  type SlackStandInOptions,
  startSlackStandIn,
  type Transport,
} from "./slack/index.ts";

export const SANDBOX_SIGNING_SECRET = "sandbox-signing-secret-0123456789";
const OAUTH_CLIENT_ID = "1111111111.2222222222";
const OAUTH_CLIENT_SECRET = "sandbox-client-secret";

/**
 * A browser's part of an OAuth install: our /slack/install, Slack's consent (the stand-in approves
 * at once for `teamId`), then our redirect with the state cookie. Throws when a step fails.
 */
export async function installViaOAuth(stack: Stack, teamId: string): Promise<void> {
  const start = await fetch(`${stack.web.url}/slack/install`, { redirect: "manual" });
  const location = start.headers.get("location");
  if (start.status !== 302 || !location) throw new Error(`/slack/install answered ${start.status}`);
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const consent = new URL(location);
  consent.searchParams.set("team", teamId);
  const back = await fetch(consent, { redirect: "manual" });
  const redirect = back.headers.get("location");
  if (back.status !== 302 || !redirect) throw new Error(`consent answered ${back.status}`);
  const done = await fetch(redirect, { headers: { cookie }, redirect: "manual" });
  if (done.status !== 200)
    throw new Error(`/slack/oauth_redirect answered ${done.status}: ${await done.text()}`);
}

export interface StackOptions {
  redisUrl: string;
  /** Redis key prefix; tests use one per file so they never see each other's data. */
  prefix?: string;
  emulator?: EmulatorOptions;
  slack?: Partial<SlackStandInOptions>;
  /** Extra environment for loadConfig (e.g. DIGEST_ACCESS, ADMIN_USER_IDS). */
  env?: Record<string, string>;
  /**
   * The calendar's clock, for the app (web, worker, digest threads) and the emulator's today alike
   * [the config's: the system's unless `env` sets CLOCK_AT].
   */
  clock?: Clock;
  /** Log level of the app (default "silent"); lines are captured in `logLines` either way. */
  logLevel?: string;
  /** Many-workspace mode: OAuth install pages instead of a single bot token. */
  oauth?: boolean;
  /**
   * Also run the delivery worker in this process (startWorker), on the web process's queue, so
   * scheduled and test-sent digests reach the stand-in. An object overrides worker options
   * (policy, claims, locks…); its `policy` applies to the web side's schedulers too.
   */
  worker?: boolean | Partial<Omit<WorkerOptions, "config" | "logger" | "redis">>;
  /** Subscription limits for both sides (tests loosen them, e.g. `{ minIntervalMs: 0 }` for every-second crons). */
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /**
   * `socket`: the app runs in Socket Mode (SLACK_APP_TOKEN set; Bolt's SocketModeReceiver opens its
   * WebSocket through the stand-in's apps.connections.open) and every delivery goes over it.
   * Default `http`: signed POSTs to /slack/events.
   */
  transport?: Transport;
  /**
   * Where digest work runs [threads]: `threads` in this process, as `start` does; `queue` on the
   * stack's own interactive queue, for worker processes the caller starts (`interactiveQueue`).
   */
  interactive?: "threads" | "queue";
  /** Lease of an interactive request's claim (tests that kill a run shorten it). */
  interactiveClaimLeaseMs?: number;
  /** The module the digest threads run [the product's own]; see startWeb's `interactive.threadModule`. */
  threadModule?: URL;
  /**
   * Return only once the digest threads have loaded [true], so a first digest, Home tab or unfurl
   * does not wait for them; false when the caller awaits `web.ready()` itself, alongside other set-up.
   */
  awaitThreads?: boolean;
  /** The web process's traces (tests pass an in-memory exporter's; the worker takes its own in `worker`). */
  tracing?: Tracing;
}

/** The whole product on loopback: analytics emulator, Slack stand-in, the real app over HTTP. */
export interface Stack {
  emulator: Emulator;
  slack: SlackStandIn;
  web: WebHandle;
  /** The in-process delivery worker, when `worker` was asked for. */
  worker?: WorkerHandle;
  /** The delivery queue's name (one per stack, so stacks sharing a Redis never take each other's jobs). */
  queueName: string;
  /** The interactive queue's name (one per stack), for workers started with `interactive: "queue"`. */
  interactiveQueue: string;
  /** The environment the app was configured from (worker processes the caller starts use it too). */
  env: Record<string, string>;
  /** The clock the app and the emulator read (see StackOptions.clock). */
  clock: Clock;
  /** The Redis key prefix the app was given (undefined: the default). */
  prefix?: string;
  redis: RedisClient;
  config: Config;
  logger: Logger;
  /** Every JSON log line the app wrote (to check that no secret reaches the logs). */
  logLines: string[];
  close(): Promise<void>;
}

/** A logger that keeps every line in memory. */
export function capturingLogger(level: string): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = keepingDestination(lines);
  return { logger: createLogger({ level: level === "silent" ? "debug" : level, destination }), lines };
}

/**
 * Starts emulator, stand-in and app with a fresh keyring. Used by the e2e tests and `demo`.
 *
 * @example
 * const stack = await startStack({ redisUrl });
 * await stack.slack.sendCommand({ teamId: DEMO.teamId, userId: DEMO.admin, channelId: DEMO.general, text: "last7d" });
 */
export async function startStack(o: StackOptions): Promise<Stack> {
  const socketMode = o.transport === "socket";
  // The emulator is up before the app's config exists (its URL is part of it); its today reads the
  // clock the app ends up with.
  let clock: Clock = o.clock ?? systemClock;
  const emulator = await startEmulator({ port: 0, today: () => utcDayOf(clock), ...o.emulator });
  const slack = await startSlackStandIn({
    signingSecret: SANDBOX_SIGNING_SECRET,
    appUrl: "http://127.0.0.1:9/",
    oauth: { clientId: OAUTH_CLIENT_ID, clientSecret: OAUTH_CLIENT_SECRET },
    transport: o.transport,
    // The sandbox's platform is the emulator: its links unfurl, as app.example.com's would.
    unfurlDomains: [new URL(emulator.appUrl).hostname],
    ...o.slack,
  });
  // OAuth fixes its redirect URL up front, and Socket Mode serves health and install pages on a
  // server Bolt starts itself: both need the port chosen here.
  const port = o.oauth || socketMode ? await freePort() : 0;
  const slackAuth: Record<string, string> = o.oauth
    ? {
        SLACK_CLIENT_ID: OAUTH_CLIENT_ID,
        SLACK_CLIENT_SECRET: OAUTH_CLIENT_SECRET,
        SLACK_STATE_SECRET: "sandbox-state-secret",
      }
    : { SLACK_BOT_TOKEN: DEMO.botToken };
  const env: Record<string, string> = {
    REDIS_URL: o.redisUrl,
    ENCRYPTION_KEYS: formatKeyring(generateKeyring(1)),
    ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
    SLACK_SIGNING_SECRET: SANDBOX_SIGNING_SECRET,
    ...slackAuth,
    SLACK_API_URL: slack.apiUrl,
    PLATFORM_URL: emulator.appUrl,
    ANALYTICS_TIMEOUT_MS: "1500",
    PORT: String(port),
    ...(socketMode ? { SLACK_APP_TOKEN: DEMO_APP_TOKEN } : {}),
    ...o.env,
  };
  const loaded = loadConfig("web", env);
  // The digest threads and the worker build their clock from the config: a clock given here is theirs too.
  const shift = (c: Config): Config =>
    o.clock ? { ...c, clockOffsetMs: clock().getTime() - Date.now() } : c;
  clock = o.clock ?? clockOf(loaded);
  const config = shift(loaded);
  const { logger, lines } = capturingLogger(o.logLevel ?? "silent");
  const suffix = o.prefix ?? Math.random().toString(36).slice(2, 10);
  const queueName = `deliveries-${suffix}`;
  const interactiveQueue = `interactive-${suffix}`;
  const workerOptions = typeof o.worker === "object" ? o.worker : {};
  const redis = connectRedis(o.redisUrl, logger);
  // The OAuth redirect URL is fixed at construction, so OAuth mode picks its port up front.
  const redirectUri = o.oauth ? `http://127.0.0.1:${port}/slack/oauth_redirect` : undefined;
  const started = await startWeb({
    config,
    logger,
    redis,
    prefix: o.prefix,
    clock,
    host: "127.0.0.1",
    redirectUri,
    subscriptions: { queueName, limits: o.subscriptionLimits, policy: workerOptions.policy },
    interactive: {
      mode: o.interactive ?? "threads",
      queueName: interactiveQueue,
      claimLeaseMs: o.interactiveClaimLeaseMs,
      threadModule: o.threadModule,
    },
    tracing: o.tracing,
  });
  // In Socket Mode nothing listens on /slack/events; health and install pages are on `port`.
  const web = socketMode ? { ...started, url: `http://127.0.0.1:${port}` } : started;
  if (o.awaitThreads !== false) await web.ready();
  // Bolt is connected once it read hello; the stand-in sends nothing before it knows that too.
  if (socketMode) await slack.waitForSocket();
  slack.setAppUrl(`${web.url}/slack/events`);
  let worker: WorkerHandle | undefined;
  let workerRedis: RedisClient | undefined;
  if (o.worker) {
    // Workers block on Redis and need their own connection with maxRetriesPerRequest: null.
    workerRedis = connectRedis(o.redisUrl, logger, "worker");
    worker = await startWorker({
      config: shift(loadConfig("worker", env)),
      logger,
      redis: workerRedis,
      prefix: o.prefix,
      queueName,
      clock,
      healthPort: null,
      limits: o.subscriptionLimits,
      // Digest work runs in the stack's threads, or in the caller's worker processes.
      interactive: false,
      ...workerOptions,
    });
  }
  return {
    emulator,
    slack,
    web,
    worker,
    queueName,
    interactiveQueue,
    env,
    clock,
    prefix: o.prefix,
    redis,
    config,
    logger,
    logLines: lines,
    async close() {
      await worker?.close();
      await workerRedis?.quit().catch(() => workerRedis?.disconnect());
      await web.close();
      await redis.quit().catch(() => redis.disconnect());
      await slack.close();
      await emulator.close();
    },
  };
}

export { DEMO, DEMO_API_KEY };
