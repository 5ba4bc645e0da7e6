import type { App, ReceiverEvent } from "@slack/bolt";
import type { AppServices } from "../services.ts";

type Body = Record<string, unknown>;

/** Interaction types Bolt routes to listeners; anything else it drops without an ack. */
const BOLT_TYPES = new Set([
  "block_suggestion",
  "dialog_submission",
  "shortcut",
  "message_action",
  "view_submission",
  "view_closed",
]);

/** Whether Bolt can classify a payload (and so will ack it or hand it to our frame). */
export function boltClassifies(body: Body): boolean {
  return (
    body.event !== undefined ||
    body.command !== undefined ||
    body.name !== undefined ||
    body.actions !== undefined ||
    BOLT_TYPES.has(String(body.type))
  );
}

/** Seconds until the next minute starts, at least one. */
export function secondsToNextMinute(nowMs: number): number {
  return Math.max(1, 60 - Math.floor((nowMs / 1000) % 60));
}

/**
 * Payloads Bolt cannot classify get no ack from it, so Slack would see a timeout and retry or show
 * an error. They are acked here, before Bolt looks at them. `app_rate_limited` (a workspace sent
 * more than Slack's hourly event allowance; it carries no inner event) is recorded — a metric, a log
 * line with the workspace and the minute, and a flag in Redis until the next minute that lets
 * optional listeners skip their work.
 */
export function ackUnclassified(
  app: App,
  deps: AppServices,
  /** Takes a classified request before Bolt does (the frame's fast path); true when it handled it. */
  before: (event: ReceiverEvent) => Promise<boolean> = async () => false,
): void {
  const process = app.processEvent.bind(app);
  app.processEvent = async (event: ReceiverEvent) => {
    const body = (event.body ?? {}) as Body;
    if (boltClassifies(body)) return (await before(event)) ? undefined : process(event);
    await event.ack();
    if (body.type === "app_rate_limited") {
      const teamId = typeof body.team_id === "string" ? body.team_id : undefined;
      deps.metrics.appRateLimited.inc();
      deps.logger.info(
        { teamId, minute: body.minute_rate_limited, type: body.type },
        "Slack is rate limiting this workspace's events; optional work is shed until the next minute",
      );
      if (teamId) {
        const key = deps.keys.eventsLimited({ teamId });
        await deps.redis
          .set(key, "1", "EX", secondsToNextMinute(deps.clock().getTime()))
          .catch((err: unknown) => deps.logger.warn({ err }, "could not record app_rate_limited"));
      }
      return;
    }
    deps.logger.info({ type: String(body.type ?? "unknown") }, "payload of an unknown shape: acknowledged");
  };
}
