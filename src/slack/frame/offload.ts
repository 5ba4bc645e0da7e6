import { randomBytes } from "node:crypto";
import type { InteractiveJob, InteractiveRoute, Offload } from "../../interactive/types.ts";
import { logContext } from "../../log.ts";
import type { RequestFacts } from "./context.ts";
import { type Args, obj } from "./facts.ts";
import type { RequestContext } from "./types.ts";

/** The immediate answer when more requests wait than the backlog allows; the real one follows. */
export const BUSY_TEXT =
  ":hourglass_flowing_sand: Insights is busy right now. Your request is queued: the answer will appear here shortly.";

/** The fields of a block action an offloaded handler reads; the rest (the clicked message, modal state) stays behind. */
const ACTION_FIELDS = [
  "type",
  "team",
  "user",
  "enterprise",
  "is_enterprise_install",
  "api_app_id",
  "container",
  "channel",
  "trigger_id",
  "response_url",
  "response_urls",
] as const;

/**
 * The payload as a job carries it: never Slack's verification token, and not the clicked message's
 * blocks (tens of kilobytes the handler never reads: a digest control's state rides in the action).
 */
export function slimBody(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.command === "string") {
    const { token: _token, ...rest } = body;
    return rest;
  }
  if (body.event !== undefined) return slimEvent(body);
  const out: Record<string, unknown> = {};
  for (const f of ACTION_FIELDS) if (body[f] !== undefined) out[f] = body[f];
  if (Array.isArray(body.actions)) out.actions = body.actions.slice(0, 1);
  if (body.view !== undefined) {
    const v = obj(body.view);
    out.view = { id: v.id, type: v.type, callback_id: v.callback_id };
    // A submission's work reads what was filled in, and where it was opened from.
    if (body.type === "view_submission")
      Object.assign(out.view as object, { state: v.state, private_metadata: v.private_metadata });
  }
  return out;
}

/** The fields of a person's message the answer needs; not its blocks, files or attachments. */
const EVENT_FIELDS = [
  "type",
  "user",
  "text",
  "channel",
  "channel_type",
  "ts",
  "thread_ts",
  "event_ts",
  "team",
];

const MAX_TEXT = 2_000;

function slimEvent(body: Record<string, unknown>): Record<string, unknown> {
  const event = obj(body.event);
  const authorizations = Array.isArray(body.authorizations) ? body.authorizations.slice(0, 1) : undefined;
  return {
    type: body.type,
    team_id: body.team_id,
    enterprise_id: body.enterprise_id,
    api_app_id: body.api_app_id,
    event_id: body.event_id,
    ...(authorizations ? { authorizations } : {}),
    event: {
      ...Object.fromEntries(EVENT_FIELDS.filter((f) => event[f] !== undefined).map((f) => [f, event[f]])),
      // The reader reads the first few hundred characters; a pasted essay need not travel.
      ...(typeof event.text === "string" ? { text: event.text.slice(0, MAX_TEXT) } : {}),
    },
  };
}

const strings = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === "string"));

/**
 * Hands an acknowledged, access-checked request to the digest executor. When more requests wait
 * than the backlog allows, the person is told at once that the answer is coming (the work still
 * runs; its answer replaces that note where Slack allows it).
 */
export async function handOff(
  offload: Offload,
  route: InteractiveRoute,
  args: Pick<Args, "body" | "context">,
  facts: RequestFacts,
  ctx: Pick<RequestContext, "reply" | "deps">,
  /** A request id derived from the request itself, so a redelivery finds the first run's claim. */
  requestId?: string,
): Promise<"queued" | "busy"> {
  const job: InteractiveJob = {
    id: requestId ?? `r${randomBytes(9).toString("hex")}`,
    route,
    body: slimBody(args.body as unknown as Record<string, unknown>),
    team: {
      teamId: args.context.teamId,
      enterpriseId: args.context.enterpriseId,
      isEnterpriseInstall: args.context.isEnterpriseInstall,
    },
    userId: facts.userId,
    receivedAt: ctx.deps.clock().getTime(),
    busy: false,
    log: strings({
      ...logContext(),
      ...facts.logFields,
      [route.kind]: route.kind === "command" ? route.name : route.id,
    }),
  };
  if ((await offload.executor.depth()) >= offload.backlog) {
    job.busy = true;
    await ctx.reply.notice(BUSY_TEXT);
  }
  await offload.executor.submit(job);
  const outcome = job.busy ? "busy" : "queued";
  offload.admitted?.(outcome);
  return outcome;
}
