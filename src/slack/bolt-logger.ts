import { type Logger as BoltLogger, LogLevel } from "@slack/logger";
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
 * Library lines can embed a whole request or Slack payload as JSON ("Received a message on the
 * WebSocket: {…}", "http request body: {…}"): view submissions carry what people typed, the platform
 * API key included, and no field path can redact inside a string. The line keeps its words and the
 * payload's size, never the payload.
 */
function withoutPayload(text: string): string {
  const at = text.search(/[{[]\s*"/);
  return at < 0 ? text : `${text.slice(0, at)}[payload of ${text.length - at} characters omitted]`;
}

/** Objects a library passes beside its text are summarised by their keys, for the same reason. */
const summary = (o: unknown) =>
  typeof o === "object" && o !== null ? { keys: Object.keys(o).slice(0, 20) } : withoutPayload(String(o));

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
      // Bolt and the Web API client log at debug on every request: below the level, do no work at all.
      if (!child.isLevelEnabled(level)) return;
      const text = withoutPayload(msg.filter((m) => typeof m === "string").join(" "));
      const err = msg.find((m) => m instanceof Error);
      const other = msg.filter((m) => typeof m !== "string" && !(m instanceof Error));
      const fields: Record<string, unknown> = {};
      if (err) fields.err = err;
      if (other.length > 0) fields.detail = other.map(summary);
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
