import { AsyncLocalStorage } from "node:async_hooks";
import { type DestinationStream, destination, type Logger, pino } from "pino";

export type { Logger } from "pino";

/** Field names whose values are secrets wherever they appear (see censorSecrets for how deep). */
const SECRET_FIELDS = [
  "apiKey",
  "api_key",
  "token",
  "botToken",
  "bot_token",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "userToken",
  "appToken",
  "authorization",
  "Authorization",
  "cookie",
  "signingSecret",
  "clientSecret",
  "client_secret",
  "stateSecret",
  "encryptionKeys",
  "keyring",
  "ciphertext",
  "password",
  "secret",
  // A response_url lets anyone holding it post into the channel for half an hour.
  "response_url",
  "responseUrl",
];

const CENSOR = "[redacted]";
/** Field names censored wherever they appear, down to this many levels of nesting. */
const SECRET_KEYS = new Set([
  ...SECRET_FIELDS,
  // Raw request text of node:http / HTTP client errors: the request line and every header.
  "_header",
]);
/** Four levels: `err.config.headers.authorization` and deeper than any of our log shapes. */
const SECRET_DEPTH = 4;
/** Fields that go through a serializer of their own; its output is censored instead. */
const SERIALIZED = new Set(["err", "error", "cause"]);

/**
 * A log object with the value of every secret-named field (at any of the first levels) replaced by
 * "[redacted]". Copies only what it changes: a line with no secret in it costs one walk and no
 * allocation. (pino's path-based redaction does the same job, but walks every wildcard path for every
 * top-level field of every line: most of the CPU a busy worker spent on logging.)
 */
export function censorSecrets<T>(value: T, depth = 0, skip?: ReadonlySet<string>): T {
  if (depth > SECRET_DEPTH || typeof value !== "object" || value === null || ArrayBuffer.isView(value))
    return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      const c = censorSecrets(v, depth + 1);
      if (c !== v) {
        out ??= value.slice();
        out[i] = c;
      }
    }
    return (out ?? value) as T;
  }
  const obj = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key) || skip?.has(key)) continue;
    const v = obj[key];
    const c = SECRET_KEYS.has(key) ? CENSOR : censorSecrets(v, depth + 1);
    if (c !== v) {
      out ??= { ...obj };
      out[key] = c;
    }
  }
  return (out ?? value) as T;
}

/** Token shapes that must not survive in free text (messages, error strings, stack traces). */
const SECRET_PATTERNS: RegExp[] = [
  /\bxox[abposr]-[A-Za-z0-9-]+/g,
  /\bxapp-[A-Za-z0-9-]+/g,
  /\bxoxe(?:\.xox[bp])?-[A-Za-z0-9-]+/g,
  /(ApiKey|Bearer)\s+[^\s"',]+/g,
  // Secrets inside JSON that was logged as text (a request body in a debug line), escaped or not.
  /(\\?"(?:token|api_key|apiKey|client_secret|refresh_token|access_token|response_url)\\?"\s*:\s*\\?")[^"\\]+/g,
  // Incoming-webhook and response_url capability URLs: the path is the credential.
  /(https:\/\/hooks\.slack\.com\/)[^\s"'\\]+/g,
];

/** Removes token-shaped substrings from a string. Used on log messages and on errors shown to users. */
export function redactText(text: string): string {
  let out = text;
  for (const p of SECRET_PATTERNS)
    out = out.replace(p, (m, keep?: string) => {
      if (typeof keep === "string" && keep !== "ApiKey" && keep !== "Bearer") return `${keep}[redacted]`;
      return `${m.startsWith("ApiKey") || m.startsWith("Bearer") ? m.split(/\s+/)[0] : m.slice(0, 5)}[redacted]`;
    });
  return out;
}

/** Fields of an error that say what went wrong without carrying what was sent or received. */
const ERROR_FIELDS = [
  "code",
  "slackError",
  "method",
  "status",
  "statusCode",
  "retryAfter",
  "retryAfterMs",
  "errno",
  "syscall",
] as const;

/** Slack's reply on a platform error: its code and the scope names, never the reply's other fields. */
function slackReply(data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const d = data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ["error", "needed", "provided"]) if (typeof d[k] === "string") out[k] = d[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * An error as a log line carries it. HTTP client errors hold the request that failed (headers with
 * the bot token, raw request text), the response (headers, body) and client configs: none of that is
 * kept. What is kept (type, message, codes, status, Slack's error code, AppError details, stack, and
 * the same for each cause) is scrubbed of token shapes.
 */
export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (typeof err !== "object" || err === null) return { message: redactText(String(err)) };
  const e = err as Record<string, unknown>;
  const out: Record<string, unknown> = {
    type: err instanceof Error ? err.constructor.name : "Object",
    message: redactText(typeof e.message === "string" ? e.message : ""),
  };
  for (const k of ERROR_FIELDS) {
    const v = e[k];
    if (typeof v === "number") out[k] = v;
    else if (typeof v === "string") out[k] = redactText(v);
  }
  const slack = slackReply(e.data);
  if (slack) out.slack = slack;
  if (typeof e.details === "object" && e.details !== null)
    out.details = JSON.parse(redactText(JSON.stringify(e.details)) || "null");
  if (typeof e.stack === "string") out.stack = redactText(e.stack);
  const cause = e.cause ?? e.original;
  if (cause !== undefined && cause !== err && depth < 4) out.cause = serializeError(cause, depth + 1);
  return out;
}

/** An error as serializeError keeps it, with secret-named fields of its details censored too. */
const censoredError = (err: unknown) => censorSecrets(serializeError(err), 1);

/**
 * The last line of defence: every line is scrubbed of token shapes on its way out, whatever field
 * or library put it there.
 */
function scrubbed(out: DestinationStream): DestinationStream {
  return { write: (line: string) => out.write(redactText(line)) };
}

const context = new AsyncLocalStorage<Record<string, string>>();

/**
 * Runs `fn` with fields (a request id, a job id) that every log line written inside it carries,
 * including lines from modules that never see the request: the analytics client, the cache, Bolt.
 */
export function withLogContext<T>(fields: Record<string, string>, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn);
}

/** The fields of the current log context (a copy): what a hand-off to another thread or process carries on. */
export function logContext(): Record<string, string> {
  return { ...context.getStore() };
}

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to capture output. */
  destination?: DestinationStream;
}

/**
 * Structured JSON logger with secrets redacted by field name and by token shape.
 *
 * @example
 * const log = createLogger({ level: "info" });
 * log.info({ teamId, jobId }, "digest delivered");
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const logger = pino(
    {
      level: options.level ?? "info",
      name: options.name ?? "insights-digest",
      base: { pid: process.pid },
      mixin: () => context.getStore() ?? {},
      formatters: {
        level: (label) => ({ level: label }),
        log: (obj) => censorSecrets(obj, 0, SERIALIZED),
        bindings: (bindings) => censorSecrets(bindings, 0, SERIALIZED),
      },
      serializers: { err: censoredError, error: censoredError, cause: censoredError },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === "string" ? redactText(a) : a)) as typeof args;
          method.apply(this, scrubbed);
        },
      },
    },
    scrubbed(options.destination ?? destination({ dest: 1, sync: false })),
  );
  // A child's bindings skip the root's bindings formatter: they are censored on their way in.
  const child = logger.child;
  logger.child = function censoredChild(this: Logger, bindings, options) {
    return child.call(this, censorSecrets(bindings, 0, SERIALIZED), options);
  } as Logger["child"];
  return logger;
}

/** A logger that discards everything (pure modules' tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
