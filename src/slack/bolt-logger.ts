import { type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import type { Logger } from "../log.ts";

const TO_BOLT: Record<string, LogLevel> = {
  trace: LogLevel.DEBUG,
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
  fatal: LogLevel.ERROR,
};

/**
 * Adapts our pino logger to the Logger interface of Bolt and @slack/web-api, so their own lines are
 * JSON and redacted like ours instead of plain `[WARN]` text on the console. Errors they pass go to
 * pino's error serializer (which drops headers, requests and bodies), not through JSON.stringify.
 */
export function boltLogger(log: Logger, component = "bolt"): BoltLogger {
  const child = log.child({ component });
  const write =
    (level: "debug" | "info" | "warn" | "error") =>
    (...msg: unknown[]): void => {
      const text = msg.filter((m) => typeof m === "string").join(" ");
      const err = msg.find((m) => m instanceof Error);
      const other = msg.filter((m) => typeof m !== "string" && !(m instanceof Error));
      const fields: Record<string, unknown> = {};
      if (err) fields.err = err;
      if (other.length > 0) fields.detail = other.map((o) => (typeof o === "object" ? o : String(o)));
      child[level](fields, text);
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    // Pino's level decides; Bolt and the WebClient only ask.
    setLevel: () => undefined,
    getLevel: () => TO_BOLT[log.level] ?? LogLevel.INFO,
    setName: () => undefined,
  };
}
