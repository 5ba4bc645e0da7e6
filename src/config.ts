import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import * as nodeUtil from "node:util";
import { z } from "zod";
import { offsetTo } from "./clock.ts";
import { ConfigError } from "./errors.ts";

/**
 * The only reader of `process.env` (and of the `.env` file that feeds it). Every other module
 * receives its settings from the composition root, so tests build configs without touching the
 * environment.
 */

export type Mode =
  | "web"
  | "worker"
  | "start"
  | "demo"
  | "preview"
  | "emulator"
  | "rotate-keys"
  | "bench"
  | "backup"
  | "restore"
  | "status";

export interface KeyringEntry {
  id: string;
  key: Buffer;
}

export interface SlackConfig {
  signingSecret?: string;
  botToken?: string;
  appToken?: string;
  clientId?: string;
  clientSecret?: string;
  stateSecret?: string;
  apiUrl: string;
  /** Socket Mode + OAuth: port of the install pages (Bolt serves them on their own server). */
  installerPort?: number;
  /** Deadline of one Web API call or response_url post (SLACK_TIMEOUT_MS) [10 s]. */
  timeoutMs?: number;
}

export interface Config {
  mode: Mode;
  slack: SlackConfig;
  redisUrl?: string;
  /** Start even when Redis' maxmemory-policy is not noeviction (ALLOW_EVICTION=1; see store/eviction.ts). */
  allowEviction: boolean;
  /** Deadline of each of the app's own Redis commands (REDIS_COMMAND_TIMEOUT_MS; not BullMQ's workers'). */
  redisCommandTimeoutMs: number;
  /** Which writes that decide a post wait for a replica (REDIS_CONFIRM_WRITES; store/confirm-writes.ts). */
  redisConfirmWrites: "auto" | "off" | "replica";
  /** How long such a write waits for its replica (and disk) before the post waits instead (REDIS_CONFIRM_TIMEOUT_MS). */
  redisConfirmTimeoutMs: number;
  /** Newest first: writes use [0], reads try the key id stored with the ciphertext. */
  keyring?: KeyringEntry[];
  analytics: {
    graphqlUrl?: string;
    appUrl?: string;
    apiKey?: string;
    timeoutMs: number;
  };
  platformUrl?: string;
  port: number;
  healthPort: number;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  adminUserIds: string[];
  digestAccess: "everyone" | "admins";
  workerConcurrency: number;
  /** WORKER_STALL_SECONDS in ms: jobs waiting that long untaken by a worker with a free slot mean it stalled (0: no check). */
  workerStallMs: number;
  /**
   * How long before a time slot fires its drivers are computed (0: at the fire). At most 60 s: the
   * shared results live 120 s, and the slot's deliveries need the rest.
   */
  slotWarmLeadMs: number;
  queuePrefix: string;
  charts: boolean;
  /** Drivers of a change: how many GraphQL queries one digest may spend on them, and how. */
  drivers: {
    /** Most queries per digest for its drivers (the digest's own query not counted). */
    maxQueries: number;
    /** Asset ids per query; larger groups are queried in chunks and summed. */
    chunkSize: number;
    /** Requests of one digest's drivers in flight at once. */
    concurrency: number;
    /** Queries sent together in one request, as aliased fields. */
    batchSize: number;
  };
  /** The data-gap rule's thresholds (src/insights/gaps.ts explains each). */
  gapRule: {
    minDays: number;
    baselineDays: number;
    minBaselineDays: number;
    /** 0..1 */
    minActiveShare: number;
    minExpected: number;
  };
  /** Digest work handed off the request path (see src/interactive/). */
  interactive: InteractiveConfig;
  /** Web processes sharing the port (node:cluster), Heroku's WEB_CONCURRENCY; 1 runs no cluster. */
  webConcurrency: number;
  /**
   * How far the app's clock is from the system's (CLOCK_AT: the instant the clock reads at start;
   * tests and demos of a chosen day). 0 in production.
   */
  clockOffsetMs: number;
  /** The nice value the worker process gives all its threads (WORKER_NICE; 0 leaves them alone). */
  workerNice: number;
  /** How long a stop waits for work in flight and Redis before it drops the connections (SHUTDOWN_TIMEOUT_MS). */
  shutdownMs: number;
  /** A scheduled post more than this after its minute counts as late in the operators' views (DELIVERY_LATE_SECONDS). */
  deliveryLateMs: number;
  /** The operators' token (OPS_TOKEN): /ops exists only when it is set. */
  opsToken?: string;
  /** Where traces go over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT); none when unset. */
  otlpEndpoint?: string;
}

export interface InteractiveConfig {
  /** Digest requests allowed to wait; past this the person gets an immediate "busy" reply (the work still runs). */
  backlog: number;
  /**
   * How long the oldest waiting digest request may have waited before the next one gets the "busy"
   * reply: its answer is then expected later than that (the digest reply target, 1.5 s).
   */
  busyAfterMs: number;
  /** Digest requests one worker process (or one thread) computes at once. */
  concurrency: number;
  /** Worker threads computing digests when web and worker run as one process (`start`). */
  threads: number;
  /**
   * Threads of a worker process that compute the requests it reads (0: on its event loop, between
   * its deliveries' steps).
   */
  workerThreads: number;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Parses `id:base64,id:base64` (newest first) into 32-byte keys. Throws ConfigError naming ENCRYPTION_KEYS. */
export function parseKeyring(value: string): KeyringEntry[] {
  const entries = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (entries.length === 0)
    throw new ConfigError("ENCRYPTION_KEYS is empty; expected id:base64 entries", ["ENCRYPTION_KEYS"]);
  const seen = new Set<string>();
  return entries.map((entry, i) => {
    const sep = entry.indexOf(":");
    const id = sep > 0 ? entry.slice(0, sep) : "";
    const b64 = sep > 0 ? entry.slice(sep + 1) : "";
    if (!KEY_ID.test(id)) {
      throw new ConfigError(
        `ENCRYPTION_KEYS entry ${i + 1} has no valid key id: expected "id:base64" with id of letters, digits, _ or -`,
        ["ENCRYPTION_KEYS"],
      );
    }
    if (seen.has(id)) throw new ConfigError(`ENCRYPTION_KEYS repeats key id "${id}"`, ["ENCRYPTION_KEYS"]);
    seen.add(id);
    const key = /^[A-Za-z0-9+/]+={0,2}$/.test(b64) ? Buffer.from(b64, "base64") : Buffer.alloc(0);
    if (key.length !== 32) {
      throw new ConfigError(
        `ENCRYPTION_KEYS key "${id}" must be 32 bytes of base64 (generate one with: openssl rand -base64 32)`,
        ["ENCRYPTION_KEYS"],
      );
    }
    return { id, key };
  });
}

/** A host and port, as REDIS_URL lists cluster seed nodes and sentinels. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where Redis is: one server (a redis:// URL for ioredis), the seed nodes of a Redis Cluster, or the
 * sentinels that know a primary by name.
 */
export type RedisTarget =
  | { kind: "single"; url: string }
  | {
      kind: "cluster";
      nodes: RedisNode[];
      username?: string;
      password?: string;
      tls: boolean;
    }
  | {
      kind: "sentinel";
      sentinels: RedisNode[];
      /** The primary's name in the sentinels' configuration (`sentinel monitor <name> …`). */
      name: string;
      /** For the Redis servers (primary and replicas). */
      username?: string;
      password?: string;
      /** For the sentinels themselves, when they require AUTH. */
      sentinelUsername?: string;
      sentinelPassword?: string;
      tls: boolean;
    };

/** What REDIS_URL may be, said the same way wherever it is refused. */
const REDIS_URL_FORMS =
  "REDIS_URL must be redis://host:port, rediss://…, redis-cluster://host:port,host:port or redis-sentinel://host:port,host:port/<primary name> (rediss-cluster:// and rediss-sentinel:// for TLS)";

const CLUSTER_URL = /^(rediss?)-cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#@]+)\/?$/;
const SENTINEL_URL =
  /^(rediss?)-sentinel:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#@]+)\/([^/?#]+)\/?(?:\?([^#]*))?$/;
const SENTINEL_OPTIONS = new Set(["sentinelUsername", "sentinelPassword"]);

function redisNodes(list: string, what: string): RedisNode[] {
  return list.split(",").map((hp) => {
    const at = hp.lastIndexOf(":");
    const host = hp.slice(0, at).replace(/^\[|\]$/g, "");
    const port = Number(hp.slice(at + 1));
    if (at <= 0 || !host || !Number.isInteger(port) || port < 1 || port > 65_535)
      throw new ConfigError(`REDIS_URL: every ${what} needs host:port`, ["REDIS_URL"]);
    return { host, port };
  });
}

const decode = (v: string | undefined) => {
  if (!v) return undefined;
  try {
    return decodeURIComponent(v);
  } catch {
    throw new ConfigError("REDIS_URL holds a badly %-encoded user name or password", ["REDIS_URL"]);
  }
};

/** The sentinel form's query: only the sentinels' own credentials. */
function sentinelOptions(query: string | undefined): {
  sentinelUsername?: string;
  sentinelPassword?: string;
} {
  const params = new URLSearchParams(query ?? "");
  for (const name of params.keys())
    if (!SENTINEL_OPTIONS.has(name))
      throw new ConfigError(
        `REDIS_URL: unknown option "${name.slice(0, 40)}" (the sentinel form takes sentinelUsername and sentinelPassword)`,
        ["REDIS_URL"],
      );
  return {
    sentinelUsername: params.get("sentinelUsername") || undefined,
    sentinelPassword: params.get("sentinelPassword") || undefined,
  };
}

/**
 * Reads REDIS_URL. `redis://` and `rediss://` name one server; `redis-cluster://[user:pass@]h1:p1,h2:p2`
 * (or `rediss-cluster://` for TLS) names seed nodes of a Redis Cluster, any of which lets the client
 * discover the rest; `redis-sentinel://[user:pass@]s1:p1,s2:p2/<primary name>[?sentinelPassword=…]`
 * (or `rediss-sentinel://`) names sentinels, which the client asks where the primary is, before it
 * connects and after every failover. Throws on anything else; the message never echoes the value (it
 * may hold a password).
 */
export function parseRedisUrl(value: string): RedisTarget {
  if (/^rediss?:\/\/./.test(value)) return { kind: "single", url: value };
  const s = SENTINEL_URL.exec(value);
  if (s)
    return {
      kind: "sentinel",
      sentinels: redisNodes(s[4] as string, "sentinel"),
      name: decode(s[5]) as string,
      username: decode(s[2]),
      password: decode(s[3]),
      ...sentinelOptions(s[6]),
      tls: s[1] === "rediss",
    };
  if (/^rediss?-sentinel:/.test(value))
    throw new ConfigError(
      "REDIS_URL: the sentinel form is redis-sentinel://host:port[,host:port…]/<primary name>",
      ["REDIS_URL"],
    );
  const m = CLUSTER_URL.exec(value);
  if (!m) throw new ConfigError(REDIS_URL_FORMS, ["REDIS_URL"]);
  return {
    kind: "cluster",
    nodes: redisNodes(m[4] as string, "cluster node"),
    username: decode(m[2]),
    password: decode(m[3]),
    tls: m[1] === "rediss",
  };
}

const url = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === "http:" || u.protocol === "https:";
      } catch {
        return false;
      }
    }, `${name} must be an http(s) URL`);

const int = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const bool = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (v) => ["1", "0", "true", "false", "on", "off", "yes", "no"].includes(v),
      `${name} must be on or off`,
    )
    .transform((v) => ["1", "true", "on", "yes"].includes(v));

const idList = (name: string) =>
  z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (ids) => ids.every((id) => /^[UW][A-Z0-9]{2,}$/.test(id)),
      `${name} must be comma-separated Slack user ids (U…)`,
    );

/** The shortest OPS_TOKEN accepted: it guards a page that can retry deliveries, so no guessable word. */
export const OPS_TOKEN_MIN = 32;

const schema = z.object({
  SLACK_SIGNING_SECRET: z.string().trim().min(8, "SLACK_SIGNING_SECRET looks too short").optional(),
  SLACK_BOT_TOKEN: z
    .string()
    .trim()
    .regex(/^xoxb-/, "SLACK_BOT_TOKEN must start with xoxb-")
    .optional(),
  SLACK_APP_TOKEN: z
    .string()
    .trim()
    .regex(/^xapp-/, "SLACK_APP_TOKEN must start with xapp-")
    .optional(),
  SLACK_CLIENT_ID: z.string().trim().min(1).optional(),
  SLACK_CLIENT_SECRET: z.string().trim().min(1).optional(),
  SLACK_STATE_SECRET: z.string().trim().min(8, "SLACK_STATE_SECRET must be at least 8 characters").optional(),
  SLACK_API_URL: url("SLACK_API_URL").optional(),
  REDIS_URL: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      try {
        parseRedisUrl(v);
      } catch (err) {
        // parseRedisUrl's messages name what is wrong without echoing the value.
        ctx.addIssue({ code: "custom", message: err instanceof ConfigError ? err.message : REDIS_URL_FORMS });
      }
    })
    .optional(),
  ALLOW_EVICTION: bool("ALLOW_EVICTION").optional(),
  REDIS_COMMAND_TIMEOUT_MS: int("REDIS_COMMAND_TIMEOUT_MS", 100, 120_000).optional(),
  REDIS_CONFIRM_WRITES: z.enum(["auto", "off", "replica"]).optional(),
  REDIS_CONFIRM_TIMEOUT_MS: int("REDIS_CONFIRM_TIMEOUT_MS", 100, 60_000).optional(),
  SLACK_TIMEOUT_MS: int("SLACK_TIMEOUT_MS", 1_000, 120_000).optional(),
  ENCRYPTION_KEYS: z.string().optional(),
  ANALYTICS_GRAPHQL_URL: url("ANALYTICS_GRAPHQL_URL").optional(),
  ANALYTICS_APP_URL: url("ANALYTICS_APP_URL").optional(),
  ANALYTICS_API_KEY: z.string().trim().min(1).optional(),
  ANALYTICS_TIMEOUT_MS: int("ANALYTICS_TIMEOUT_MS", 100, 120_000).optional(),
  PLATFORM_URL: url("PLATFORM_URL").optional(),
  PORT: int("PORT", 0, 65535).optional(),
  HEALTH_PORT: int("HEALTH_PORT", 0, 65535).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  ADMIN_USER_IDS: idList("ADMIN_USER_IDS").optional(),
  DIGEST_ACCESS: z.enum(["everyone", "admins"]).optional(),
  WORKER_CONCURRENCY: int("WORKER_CONCURRENCY", 1, 200).optional(),
  WORKER_STALL_SECONDS: int("WORKER_STALL_SECONDS", 0, 3_600).optional(),
  SLOT_WARM_LEAD_SECONDS: int("SLOT_WARM_LEAD_SECONDS", 0, 60).optional(),
  QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_{}-]{1,64}$/, "QUEUE_PREFIX may hold letters, digits, _, -, { and }")
    .optional(),
  CHARTS: bool("CHARTS").optional(),
  DRIVERS_MAX_QUERIES: int("DRIVERS_MAX_QUERIES", 1, 500).optional(),
  DRIVERS_CHUNK_SIZE: int("DRIVERS_CHUNK_SIZE", 1, 20_000).optional(),
  DRIVERS_CONCURRENCY: int("DRIVERS_CONCURRENCY", 1, 64).optional(),
  DRIVERS_BATCH_SIZE: int("DRIVERS_BATCH_SIZE", 1, 500).optional(),
  GAP_MIN_DAYS: int("GAP_MIN_DAYS", 1, 60).optional(),
  GAP_BASELINE_DAYS: int("GAP_BASELINE_DAYS", 1, 300).optional(),
  GAP_MIN_BASELINE_DAYS: int("GAP_MIN_BASELINE_DAYS", 1, 300).optional(),
  GAP_MIN_ACTIVE_PERCENT: int("GAP_MIN_ACTIVE_PERCENT", 0, 100).optional(),
  GAP_MIN_EXPECTED: int("GAP_MIN_EXPECTED", 1, 1_000_000_000).optional(),
  INTERACTIVE_BACKLOG: int("INTERACTIVE_BACKLOG", 0, 100_000).optional(),
  INTERACTIVE_BUSY_AFTER_MS: int("INTERACTIVE_BUSY_AFTER_MS", 0, 600_000).optional(),
  INTERACTIVE_CONCURRENCY: int("INTERACTIVE_CONCURRENCY", 1, 500).optional(),
  INTERACTIVE_THREADS: int("INTERACTIVE_THREADS", 1, 64).optional(),
  INTERACTIVE_WORKER_THREADS: int("INTERACTIVE_WORKER_THREADS", 0, 16).optional(),
  WEB_CONCURRENCY: int("WEB_CONCURRENCY", 1, 64).optional(),
  WORKER_NICE: int("WORKER_NICE", 0, 19).optional(),
  CLOCK_AT: z
    .string()
    .trim()
    .refine(
      (v) =>
        /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(v) &&
        !Number.isNaN(Date.parse(v)),
      "CLOCK_AT must be an ISO instant with its zone, e.g. 2026-12-06T09:00:00Z",
    )
    .optional(),
  SHUTDOWN_TIMEOUT_MS: int("SHUTDOWN_TIMEOUT_MS", 1_000, 600_000).optional(),
  DELIVERY_LATE_SECONDS: int("DELIVERY_LATE_SECONDS", 1, 86_400).optional(),
  OPS_TOKEN: z
    .string()
    .trim()
    .min(OPS_TOKEN_MIN, `OPS_TOKEN must be at least ${OPS_TOKEN_MIN} characters (openssl rand -base64 32)`)
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: url("OTEL_EXPORTER_OTLP_ENDPOINT").optional(),
});

/** Every environment variable loadConfig reads; `.env.example` documents each (a unit test keeps it so). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

/** One core for the web event loop, the rest (at most 4) for digest threads. */
function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** What loadEnvFile did with the file. */
export type EnvFileResult =
  | { status: "loaded"; path: string; names: string[] }
  | { status: "absent"; path: string }
  /** This Node has no .env parser (it came in Node 20.12); nothing was read. */
  | { status: "unsupported"; path: string };

type ParseEnv = (content: string) => Record<string, string | undefined>;
// A namespace lookup, not a named import: on Node before 20.12 the export is missing, not an error.
const nodeParseEnv = (nodeUtil as { parseEnv?: ParseEnv }).parseEnv;

/**
 * Reads a `.env` file (the format of `.env.example`) into `env`, before loadConfig reads it. A
 * variable already in the environment wins over the file, even when set to "", so an operator's
 * export or the platform's settings are never overridden by a file left on disk. The parser is
 * Node's own (`util.parseEnv`, the one behind `process.loadEnvFile` and `node --env-file`); taking
 * the parsed values rather than letting Node write `process.env` keeps that precedence here, in
 * one line, and lets tests pass an env of their own. A missing file is fine: most deployments
 * set real variables.
 */
export function loadEnvFile(
  path = ".env",
  env: Record<string, string | undefined> = process.env,
  /** Node's parser; null where this Node has none. */
  parse: ParseEnv | null = nodeParseEnv ?? null,
): EnvFileResult {
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { status: "absent", path };
    throw new ConfigError(`${path} could not be read (${code ?? (err as Error).message})`, []);
  }
  if (!parse) return { status: "unsupported", path };
  const names: string[] = [];
  for (const [name, value] of Object.entries(parse(content))) {
    if (value === undefined || env[name] !== undefined) continue;
    env[name] = value;
    names.push(name);
  }
  return { status: "loaded", path, names };
}

/** Which variables each long-running mode cannot do without. */
function requireFor(mode: Mode, env: z.infer<typeof schema>): string[] {
  const missing: string[] = [];
  const serving = mode === "web" || mode === "start" || mode === "worker";
  if (serving) {
    if (!env.REDIS_URL) missing.push("REDIS_URL");
    if (!env.ENCRYPTION_KEYS) missing.push("ENCRYPTION_KEYS");
    if (!env.ANALYTICS_GRAPHQL_URL && !env.ANALYTICS_APP_URL)
      missing.push("ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL");
  }
  if (mode === "rotate-keys" || mode === "restore") {
    if (!env.REDIS_URL) missing.push("REDIS_URL");
    if (!env.ENCRYPTION_KEYS) missing.push("ENCRYPTION_KEYS");
  }
  // A backup copies sealed secrets as they are: it needs no key.
  if ((mode === "backup" || mode === "status") && !env.REDIS_URL) missing.push("REDIS_URL");
  if (mode === "web" || mode === "start") {
    if (!env.SLACK_SIGNING_SECRET) missing.push("SLACK_SIGNING_SECRET");
  }
  // The worker posts digests too, so it needs a bot token (or the OAuth store's) as much as web does.
  // The worker refreshes OAuth tokens but never runs the install flow, so it needs no state secret.
  if (serving) {
    const names = [
      "SLACK_CLIENT_ID",
      "SLACK_CLIENT_SECRET",
      ...(mode === "worker" ? [] : ["SLACK_STATE_SECRET"]),
    ];
    if (!env.SLACK_BOT_TOKEN && !names.every((n) => Boolean(env[n as keyof typeof env]))) {
      missing.push(`SLACK_BOT_TOKEN (or ${names.join(" + ")})`);
    }
  }
  return missing;
}

/**
 * Reads and checks the environment for one mode. Throws ConfigError whose message names every
 * bad or missing variable, so the process stops at start-up rather than at first use.
 */
export function loadConfig(mode: Mode, env: Record<string, string | undefined> = process.env): Config {
  // Empty strings in .env files mean "unset", not "set to empty".
  const cleaned = Object.fromEntries(
    Object.keys(schema.shape).flatMap((k) =>
      env[k] !== undefined && env[k]?.trim() !== "" ? [[k, env[k]]] : [],
    ),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? "");
      // Never echo the value: some of these are secrets.
      return i.message.includes(name) ? i.message : `${name}: ${i.message}`;
    });
    const vars = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "")))];
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`, vars);
  }
  const e = parsed.data;
  const missing = requireFor(mode, e);
  if (missing.length > 0) {
    throw new ConfigError(`Missing configuration for "${mode}": ${missing.join(", ")}`, missing);
  }
  const partialOauth = [e.SLACK_CLIENT_ID, e.SLACK_CLIENT_SECRET, e.SLACK_STATE_SECRET].filter(
    Boolean,
  ).length;
  if (partialOauth > 0 && partialOauth < 3) {
    throw new ConfigError("OAuth needs all of SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET", [
      "SLACK_CLIENT_ID",
      "SLACK_CLIENT_SECRET",
      "SLACK_STATE_SECRET",
    ]);
  }
  const baselineDays = e.GAP_BASELINE_DAYS ?? 28;
  const minBaselineDays = e.GAP_MIN_BASELINE_DAYS ?? Math.min(14, baselineDays);
  if (minBaselineDays > baselineDays) {
    throw new ConfigError("GAP_MIN_BASELINE_DAYS must not exceed GAP_BASELINE_DAYS", [
      "GAP_MIN_BASELINE_DAYS",
      "GAP_BASELINE_DAYS",
    ]);
  }
  const apiUrl = e.SLACK_API_URL ?? "https://slack.com/api/";
  return {
    mode,
    slack: {
      signingSecret: e.SLACK_SIGNING_SECRET,
      botToken: e.SLACK_BOT_TOKEN,
      appToken: e.SLACK_APP_TOKEN,
      clientId: e.SLACK_CLIENT_ID,
      clientSecret: e.SLACK_CLIENT_SECRET,
      stateSecret: e.SLACK_STATE_SECRET,
      apiUrl: apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`,
      installerPort: e.PORT ?? 3000,
      timeoutMs: e.SLACK_TIMEOUT_MS ?? 10_000,
    },
    redisUrl: e.REDIS_URL,
    allowEviction: e.ALLOW_EVICTION ?? false,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS ?? 5_000,
    redisConfirmWrites: e.REDIS_CONFIRM_WRITES ?? "auto",
    redisConfirmTimeoutMs: e.REDIS_CONFIRM_TIMEOUT_MS ?? 2_000,
    keyring: e.ENCRYPTION_KEYS ? parseKeyring(e.ENCRYPTION_KEYS) : undefined,
    analytics: {
      graphqlUrl: e.ANALYTICS_GRAPHQL_URL,
      appUrl: e.ANALYTICS_APP_URL,
      apiKey: e.ANALYTICS_API_KEY,
      timeoutMs: e.ANALYTICS_TIMEOUT_MS ?? 4000,
    },
    platformUrl: e.PLATFORM_URL ?? e.ANALYTICS_APP_URL,
    port: e.PORT ?? 3000,
    healthPort: e.HEALTH_PORT ?? 3001,
    logLevel: e.LOG_LEVEL ?? "info",
    adminUserIds: e.ADMIN_USER_IDS ?? [],
    digestAccess: e.DIGEST_ACCESS ?? "everyone",
    workerConcurrency: e.WORKER_CONCURRENCY ?? 5,
    workerStallMs: (e.WORKER_STALL_SECONDS ?? 20) * 1000,
    slotWarmLeadMs: (e.SLOT_WARM_LEAD_SECONDS ?? 15) * 1000,
    queuePrefix: e.QUEUE_PREFIX ?? "{insights}",
    charts: e.CHARTS ?? true,
    drivers: {
      maxQueries: e.DRIVERS_MAX_QUERIES ?? 32,
      chunkSize: e.DRIVERS_CHUNK_SIZE ?? 1000,
      concurrency: e.DRIVERS_CONCURRENCY ?? 8,
      batchSize: e.DRIVERS_BATCH_SIZE ?? 32,
    },
    gapRule: {
      minDays: e.GAP_MIN_DAYS ?? 2,
      baselineDays,
      minBaselineDays,
      minActiveShare: (e.GAP_MIN_ACTIVE_PERCENT ?? 90) / 100,
      minExpected: e.GAP_MIN_EXPECTED ?? 30,
    },
    interactive: {
      backlog: e.INTERACTIVE_BACKLOG ?? 1_000,
      busyAfterMs: e.INTERACTIVE_BUSY_AFTER_MS ?? 1_500,
      // Requests wait mostly on the analytics service and Slack: at 20, a slot's first seconds (people's
      // caches cold, every request a few round trips) filled the slots and queued requests for seconds.
      concurrency: e.INTERACTIVE_CONCURRENCY ?? 50,
      threads: e.INTERACTIVE_THREADS ?? defaultThreads(),
      // Off by default until a resumed worker's request thread is understood under load (a frozen and
      // resumed worker missed its check in 20 s on Node 24 beside other work); 1 moves the requests'
      // work off the deliveries' event loop.
      workerThreads: e.INTERACTIVE_WORKER_THREADS ?? 1,
    },
    webConcurrency: e.WEB_CONCURRENCY ?? 1,
    // A worker that shares a host's cores with a web process gives way to it: acks come first.
    workerNice: e.WORKER_NICE ?? 10,
    // Read once, here: every process and thread built from this config keeps the same offset.
    clockOffsetMs: e.CLOCK_AT ? offsetTo(Date.parse(e.CLOCK_AT)) : 0,
    // Under the 30 s most platforms wait after SIGTERM before they SIGKILL.
    shutdownMs: e.SHUTDOWN_TIMEOUT_MS ?? 25_000,
    deliveryLateMs: (e.DELIVERY_LATE_SECONDS ?? 300) * 1000,
    opsToken: e.OPS_TOKEN,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}
