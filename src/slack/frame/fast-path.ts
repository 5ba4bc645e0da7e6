import type { Context, ReceiverEvent } from "@slack/bolt";
import { createRequestClaims } from "../../interactive/claims.ts";
import { handOff, retryFor } from "../../interactive/hand-off.ts";
import { responseUrlPoster } from "../../interactive/response-url.ts";
import { type InteractiveJob, type InteractiveRoute, routeName } from "../../interactive/types.ts";
import { type Logger, withLogContext } from "../../log.ts";
import { inSpan, NO_TRACING } from "../../tracing.ts";
import { errorReply } from "../error-reply.ts";
import type { AppServices } from "../services.ts";
import { workspaceOf } from "../workspace.ts";
import { str } from "./facts.ts";
import { BUSY_MESSAGE, BUSY_TEXT, overBacklog, requestOf, teamOf } from "./offload.ts";
import type { RouteTable } from "./routes.ts";
import { type ActionEntry, handsOff } from "./types.ts";

/**
 * Whether the workspace a request names may be served here: single-workspace mode checks it is the
 * bot token's team; OAuth mode that an installation is stored for it. Bolt's authorize does the same
 * on its path; this one costs the acking loop no decryption (the worker looks the token up).
 * Undefined: it cannot tell without asking Slack (the token's identity is not known yet), so the
 * request takes Bolt's path.
 */
export type Admit = (team: InteractiveJob["team"]) => Promise<boolean | undefined>;

type Body = Record<string, unknown>;

/** The entry a request goes to, when that entry hands its work off; undefined otherwise. */
function offloadedRoute(table: RouteTable, body: Body): InteractiveRoute | undefined {
  const route = table.route(body);
  if (route.kind === "command") {
    let kind: string;
    try {
      kind = (table.parse(str(body.text) ?? "") as { kind: string }).kind;
    } catch {
      // Malformed text: the frame's own path answers it with the parser's words.
      return undefined;
    }
    const entry = table.commands.get(kind);
    return entry && handsOff(entry) ? { kind: "command", name: kind } : undefined;
  }
  if (route.kind === "action" && handsOff(route.entry as ActionEntry))
    return { kind: "action", id: route.id };
  return undefined;
}

/** An answer on a response_url from the acking process (the busy note of a click, a failed hand-off). */
async function tell(
  url: string | undefined,
  message: Record<string, unknown>,
  receivedAt: number,
  log: Logger,
) {
  if (!url) return;
  await responseUrlPoster({ url, receivedAt, used: 0, timeoutMs: 3_000 })
    .post(message)
    .catch((err: unknown) => log.warn({ err }, "could not deliver the reply"));
}

/** What the dispatcher adds to a hand-off it makes from Bolt's path. */
export interface HandOffExtras {
  /** What the frame read already (a message's request id and the message). */
  read?: Pick<InteractiveJob, "id" | "message">;
  /**
   * The busy note for a request that has no response_url (a message, a modal's work), sent after
   * the hand-off when the backlog is full; its answer follows it.
   */
  busyNote?: (text: string) => Promise<void>;
  /** Where a failed hand-off is told, for a request without a response_url. */
  failed?: (err: unknown) => Promise<void>;
}

/**
 * Acks a request whose entry hands its work off and hands it over: with the busy note in the ack when
 * the backlog is full and it is a slash command (a click gets it on its response_url, after the
 * hand-off), then one write to the executor. A failed hand-off is answered in the frame's one reply
 * shape (false then). Used by the fast path below and by the dispatcher (when Bolt's path brought
 * the request).
 */
export async function handOffAcked(
  deps: AppServices & { offload: NonNullable<AppServices["offload"]> },
  body: Body,
  route: InteractiveRoute,
  ack: (response?: unknown) => Promise<void>,
  team?: InteractiveJob["team"],
  extras: HandOffExtras = {},
): Promise<boolean> {
  const receivedAt = deps.clock().getTime();
  const job = requestOf(route, body, receivedAt, {}, team, extras.read);
  job.log = {
    requestId: job.id,
    [route.kind]: routeName(route),
    teamId: job.team.teamId ?? "",
    userId: job.userId,
  };
  // From here on every line (Bolt's ack included) names the request by the id its executor logs under.
  const tracing = deps.tracing ?? NO_TRACING;
  return withLogContext(job.log, () =>
    inSpan(
      tracing.tracer,
      "slack.ack",
      { "insights.request.kind": route.kind, "insights.request.name": routeName(route) },
      () => {
        // The answer's span, wherever the work runs, continues this trace.
        const tp = tracing.traceparent();
        if (tp) job.tp = tp;
        return submitAcked(deps, route, ack, job, receivedAt, extras);
      },
    ),
  );
}

async function submitAcked(
  deps: AppServices & { offload: NonNullable<AppServices["offload"]> },
  route: InteractiveRoute,
  ack: (response?: unknown) => Promise<void>,
  job: InteractiveJob,
  receivedAt: number,
  extras: HandOffExtras,
): Promise<boolean> {
  const { offload } = deps;
  const busy = await overBacklog(offload);
  if (busy) job.notice = route.kind === "command" ? "ack" : job.responseUrl ? "response_url" : undefined;
  await ack(job.notice === "ack" ? BUSY_MESSAGE : undefined);
  try {
    await handOff(offload.executor, job);
  } catch (err) {
    const log = deps.logger.child(job.log);
    // A write that landed unconfirmed may still be run: close the request first, unless a run has
    // its answer going out already (then the person gets that, not "it failed").
    // When that write cannot be made for ten more seconds either, the person is told anyway.
    const claims = createRequestClaims({ redis: deps.redis, keys: deps.keys });
    const closed = await retryFor(
      async () => claims.giveUp(workspaceOf(job.team as Context), job.id),
      10_000,
      true,
    );
    if (!closed) {
      log.warn({ err }, "the hand-off went unconfirmed, but a worker is answering the request");
      offload.admitted?.(busy ? "busy" : "queued");
      return true;
    }
    log.error({ err }, "could not hand the request off");
    deps.metrics.requests.inc({ kind: route.kind, outcome: "handoff_failed" });
    if (job.responseUrl)
      await tell(job.responseUrl, { ...errorReply(err, log), response_type: "ephemeral" }, receivedAt, log);
    else await extras.failed?.(err);
    return false;
  }
  offload.admitted?.(busy ? "busy" : "queued");
  if (job.notice === "response_url") await tell(job.responseUrl, BUSY_MESSAGE, receivedAt, deps.logger);
  else if (busy && extras.busyNote)
    await extras
      .busyNote(BUSY_TEXT)
      .catch((err: unknown) => deps.logger.warn({ err }, "could not deliver the reply"));
  return true;
}

/**
 * The acking path of every request whose entry hands its work off (digest commands, digest
 * controls), taken before Bolt's: route it, admit its workspace, then `handOffAcked`. No Bolt context,
 * no listener arguments, no user lookup, no access check and no log line here: the executor does
 * those where the work runs, with the same entry and the same reply shape. Returns false for
 * anything else, which then takes Bolt's path and the frame's dispatcher.
 */
export function createFastPath(deps: AppServices, table: RouteTable, admit: Admit) {
  return async function fastPath(event: ReceiverEvent): Promise<boolean> {
    const offload = deps.offload;
    if (!offload) return false;
    const body = event.body as Body;
    const route = offloadedRoute(table, body);
    if (!route) return false;
    const ack = async (response?: unknown) => {
      try {
        await event.ack(response);
      } catch (err) {
        // A Socket Mode connection refreshed between delivery and ack: the request is still answerable.
        deps.logger.warn({ err }, "could not acknowledge the request; handling it anyway");
      }
    };
    const team = teamOf(body);
    const admitted = await admit(team);
    if (admitted === undefined) return false;
    if (!admitted) {
      await ack();
      deps.logger.info(
        { teamId: team.teamId, enterpriseId: team.enterpriseId, [route.kind]: routeName(route) },
        "request from a workspace this app does not serve: acknowledged, not answered",
      );
      deps.metrics.requests.inc({ kind: route.kind, outcome: "not_installed" });
      return true;
    }
    await handOffAcked({ ...deps, offload }, body, route, ack, team);
    return true;
  };
}
