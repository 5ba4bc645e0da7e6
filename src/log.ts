import { AsyncLocalStorage } from "node:async_hooks";
import { type DestinationStream, destination, type Logger, pino, stdSerializers } from "pino";

export type { Logger } from "pino";

/** Field names whose values are secrets wherever they appear (two levels deep covers our log shapes). */
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
];

const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [
  f,
  `*.${f}`,
  `*.*.${f}`,
  `headers.${f}`,
  `*.headers.${f}`,
]);

/** Token shapes that must not survive in free text (messages, error strings, stack traces). */
const SECRET_PATTERNS: RegExp[] = [
  /\bxox[abposr]-[A-Za-z0-9-]+/g,
  /\bxapp-[A-Za-z0-9-]+/g,
  /\bxoxe(?:\.xox[bp])?-[A-Za-z0-9-]+/g,
  /(ApiKey|Bearer)\s+[^\s"',]+/g,
];

/** Removes token-shaped substrings from a string. Used on log messages and on errors shown to users. */
export function redactText(text: string): string {
  let out = text;
  for (const p of SECRET_PATTERNS)
    out = out.replace(
      p,
      (m) =>
        `${m.startsWith("ApiKey") || m.startsWith("Bearer") ? m.split(/\s+/)[0] : m.slice(0, 5)}[redacted]`,
    );
  return out;
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
  return pino(
    {
      level: options.level ?? "info",
      name: options.name ?? "insights-digest",
      base: { pid: process.pid },
      mixin: () => context.getStore() ?? {},
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
      serializers: {
        err: (err: unknown) => {
          const s = stdSerializers.err(err as Error);
          return {
            ...s,
            message: redactText(String(s.message ?? "")),
            stack: s.stack ? redactText(s.stack) : undefined,
          };
        },
      },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === "string" ? redactText(a) : a)) as typeof args;
          method.apply(this, scrubbed);
        },
      },
    },
    options.destination ?? destination({ dest: 1, sync: false }),
  );
}

/** A logger that discards everything (pure modules' tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
