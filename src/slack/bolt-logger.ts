import { type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import type { Logger } from "../log.ts";

/** Adapts our pino logger to Bolt's Logger interface, so Bolt's own lines are JSON and redacted too. */
export function boltLogger(log: Logger): BoltLogger {
  const child = log.child({ component: "bolt" });
  const toText = (msg: unknown[]) =>
    msg.map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join(" ");
  return {
    debug: (...msg) => child.debug(toText(msg)),
    info: (...msg) => child.info(toText(msg)),
    warn: (...msg) => child.warn(toText(msg)),
    error: (...msg) => child.error(toText(msg)),
    setLevel: () => undefined,
    getLevel: () => LogLevel.INFO,
    setName: () => undefined,
  };
}
