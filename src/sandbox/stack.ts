import { Writable } from "node:stream";
import type { Redis } from "ioredis";
import { type Config, loadConfig } from "../config.ts";
import { connectRedis } from "../entry/redis.ts";
import { startWeb, type WebHandle } from "../entry/web.ts";
import { createLogger, type Logger } from "../log.ts";
import { formatKeyring, generateKeyring } from "../store/crypto.ts";
import { DEMO_API_KEY, type Emulator, type EmulatorOptions, startEmulator } from "./analytics/index.ts";
import { DEMO, type SlackStandIn, startSlackStandIn, type SlackStandInOptions } from "./slack/index.ts";

export const SANDBOX_SIGNING_SECRET = "sandbox-signing-secret-0123456789";

export interface StackOptions {
  redisUrl: string;
  /** Redis key prefix; tests use one per file so they never see each other's data. */
  prefix?: string;
  emulator?: EmulatorOptions;
  slack?: Partial<SlackStandInOptions>;
  /** Extra environment for loadConfig (e.g. DIGEST_ACCESS, ADMIN_USER_IDS). */
  env?: Record<string, string>;
  clock?: () => Date;
  /** Log level of the app (default "silent"); lines are captured in `logLines` either way. */
  logLevel?: string;
}

/** The whole product on loopback: analytics emulator, Slack stand-in, the real app over HTTP. */
export interface Stack {
  emulator: Emulator;
  slack: SlackStandIn;
  web: WebHandle;
  redis: Redis;
  config: Config;
  logger: Logger;
  /** Every JSON log line the app wrote (to check that no secret reaches the logs). */
  logLines: string[];
  close(): Promise<void>;
}

/** A logger that keeps every line in memory. */
export function capturingLogger(level: string): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      cb();
    },
  });
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
  const emulator = await startEmulator({ port: 0, ...o.emulator });
  const slack = await startSlackStandIn({ signingSecret: SANDBOX_SIGNING_SECRET, appUrl: "http://127.0.0.1:9/", ...o.slack });
  const config = loadConfig("web", {
    REDIS_URL: o.redisUrl,
    ENCRYPTION_KEYS: formatKeyring(generateKeyring(1)),
    ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
    SLACK_SIGNING_SECRET: SANDBOX_SIGNING_SECRET,
    SLACK_BOT_TOKEN: DEMO.botToken,
    SLACK_API_URL: slack.apiUrl,
    PLATFORM_URL: emulator.appUrl,
    ANALYTICS_TIMEOUT_MS: "1500",
    PORT: "0",
    ...o.env,
  });
  const { logger, lines } = capturingLogger(o.logLevel ?? "silent");
  const redis = connectRedis(o.redisUrl, logger);
  const web = await startWeb({ config, logger, redis, prefix: o.prefix, clock: o.clock, host: "127.0.0.1" });
  slack.setAppUrl(`${web.url}/slack/events`);
  return {
    emulator,
    slack,
    web,
    redis,
    config,
    logger,
    logLines: lines,
    async close() {
      await web.close();
      await redis.quit().catch(() => redis.disconnect());
      await slack.close();
      await emulator.close();
    },
  };
}

export { DEMO, DEMO_API_KEY };
