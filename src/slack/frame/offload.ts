import { mrkdwn } from "../../blockkit/text.ts";
import type {
  BacklogReading,
  InteractiveJob,
  InteractiveRoute,
  Offload,
  RequestSurface,
} from "../../interactive/types.ts";
import { randomId } from "../../random-id.ts";
import { obj, str } from "./facts.ts";

/** The immediate answer when more requests wait than the backlog allows; the real one follows. */
export const BUSY_TEXT =
  ":hourglass_flowing_sand: Insights is busy right now. Your request is queued: the answer will appear here shortly.";

/** The busy note as a message (a slash command's ack carries it; a click gets it on its response_url). */
export const BUSY_MESSAGE = {
  response_type: "ephemeral",
  text: BUSY_TEXT,
  blocks: [{ type: "section", text: mrkdwn(BUSY_TEXT) }],
} as const;

type Body = Record<string, unknown>;

/** The workspace a request names, read as Slack lays it out per kind of payload. */
export function teamOf(body: Body): InteractiveJob["team"] {
  if (typeof body.command === "string")
    return {
      teamId: str(body.team_id),
      enterpriseId: str(body.enterprise_id),
      isEnterpriseInstall: body.is_enterprise_install === "true" || body.is_enterprise_install === true,
    };
  const team = obj(body.team);
  const enterprise = obj(body.enterprise);
  const view = obj(body.view);
  return {
    // A modal opened from a Slack Connect channel names the installing workspace on the view.
    teamId: str(view.app_installed_team_id) ?? str(team.id) ?? str(obj(body.user).team_id),
    enterpriseId: str(enterprise.id) ?? str(team.enterprise_id),
    isEnterpriseInstall: body.is_enterprise_install === true,
  };
}

/** Where a request came from: the container, conversation, clicked message and its thread, the view. */
export function surfaceOf(body: Body): RequestSurface {
  const container = obj(body.container);
  const message = obj(body.message);
  const view = obj(body.view);
  const kind = str(container.type);
  const out: RequestSurface = {};
  if (kind === "message" || kind === "view") out.container = kind;
  const channelId = str(body.channel_id) ?? str(obj(body.channel).id) ?? str(container.channel_id);
  if (channelId) out.channelId = channelId;
  if (container.is_ephemeral === true) out.ephemeral = true;
  const messageTs = str(container.message_ts) ?? str(message.ts);
  if (messageTs) out.messageTs = messageTs;
  const threadTs = str(message.thread_ts) ?? str(container.thread_ts);
  if (threadTs) out.threadTs = threadTs;
  const viewId = str(view.id) ?? str(container.view_id);
  if (viewId) out.viewId = viewId;
  const viewType = str(view.type);
  if (viewType) out.viewType = viewType;
  const callback = str(view.callback_id);
  if (callback) out.viewCallbackId = callback;
  return out;
}

/** The longest message text a job carries. */
const MAX_TEXT = 2_000;

const responseUrlOf = (body: Body) =>
  str(body.response_url) ??
  (Array.isArray(body.response_urls) ? str(obj(body.response_urls[0]).response_url) : undefined);

/**
 * The hand-off of one request, from its Slack payload: only the fields its handler reads, named
 * (never Slack's verification token, a token of ours or the clicked message's blocks; a modal's
 * state only for a submission's own work).
 */
export function requestOf(
  route: InteractiveRoute,
  body: Body,
  receivedAt: number,
  log: Record<string, string>,
  /** The workspace as Bolt resolved it (events name theirs in `authorizations`); else read from the body. */
  resolved?: InteractiveJob["team"],
  /** What the frame read already: a message's request id (one per message) and the message itself. */
  read?: Pick<InteractiveJob, "id" | "message">,
): InteractiveJob {
  const team = resolved ?? teamOf(body);
  const event = obj(body.event);
  const userId =
    str(body.user_id) ?? str(obj(body.user).id) ?? (typeof event.user === "string" ? event.user : "");
  const job: InteractiveJob = {
    v: 1,
    id: `r${randomId()}`,
    route,
    team: Object.fromEntries(Object.entries(team).filter(([, v]) => v !== undefined && v !== false)),
    userId,
    receivedAt,
    surface: surfaceOf(body),
    log,
  };
  const url = responseUrlOf(body);
  if (url) job.responseUrl = url;
  if (route.kind === "command")
    job.command = { text: str(body.text) ?? "", channelName: str(body.channel_name) };
  if (route.kind === "action" && Array.isArray(body.actions)) job.action = obj(body.actions[0]);
  if (route.kind === "event") job.event = { ...event, type: str(event.type) ?? route.id };
  if (route.kind === "function")
    job.step = {
      executionId: str(event.function_execution_id) ?? "",
      inputs: obj(event.inputs),
    };
  if (route.kind === "view") {
    const view = obj(body.view);
    const privateMetadata = str(view.private_metadata);
    job.submission = { values: obj(obj(view.state).values), ...(privateMetadata ? { privateMetadata } : {}) };
  }
  if (read?.id) job.id = read.id;
  // The reader reads the first few hundred characters; a pasted essay need not travel.
  if (read?.message) job.message = { ...read.message, text: read.message.text.slice(0, MAX_TEXT) };
  return job;
}

/** How long a backlog reading that says "busy" is trusted before it is read again. */
const BUSY_READING_MS = 250;

/**
 * Whether the next request should be told it will wait: the requests already waiting have waited
 * `busyAfterMs` (its own answer is then expected later than that), or `backlog` of them wait. Read
 * from the last reading, aged by the time since (no Redis call on the acking path); a reading that
 * says "busy" and is older than a quarter second is refreshed first, so a burst that has drained
 * does not keep answering "busy". A wait, not a count, is what a person notices: the same hundred
 * waiting requests are a blink for eight workers and seconds for one.
 */
export async function overBacklog(offload: Offload): Promise<boolean> {
  // The oldest request of a reading has waited on since, unless a worker took it: a reading that only
  // passes the bound by ageing is one that says "busy", so it is read again before it is believed.
  const over = (r: BacklogReading) =>
    r.count >= offload.backlog ||
    (r.count > 0 && r.waitedMs + Math.max(0, Date.now() - r.atMs) >= offload.busyAfterMs);
  const seen = offload.executor.waiting();
  if (!over(seen)) return false;
  if (Date.now() - seen.atMs <= BUSY_READING_MS) return true;
  // Bounded: the ack waits on this, and Slack gives it three seconds; a Redis that does not answer
  // (failing over, cut off) leaves the last reading standing.
  let timer: NodeJS.Timeout | undefined;
  const fresh = await Promise.race([
    offload.executor
      .depth()
      .then(() => offload.executor.waiting())
      .catch(() => seen),
    new Promise<BacklogReading>((resolve) => {
      timer = setTimeout(() => resolve(seen), REFRESH_WAIT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  return over(fresh);
}

/** How long the acking path waits for a fresh backlog reading. */
const REFRESH_WAIT_MS = 300;

/**
 * A request queued by the previous version (a BullMQ job holding a slimmed Slack payload) as a
 * request of this one; undefined when the data is not one.
 */
export function fromLegacyJob(data: unknown): InteractiveJob | undefined {
  const d = obj(data);
  const given = obj(d.route);
  const kind = str(given.kind);
  const name = kind === "command" ? str(given.name) : str(given.id);
  const id = str(d.id);
  if (!id || !name || !kind || !["command", "action", "view", "message"].includes(kind)) return undefined;
  const body = obj(d.body);
  const route = (kind === "command" ? { kind, name } : { kind, id: name }) as InteractiveRoute;
  let message: InteractiveJob["message"];
  if (kind === "message") {
    // The previous version let only a person's message through; its slimmed event names it.
    const event = obj(body.event);
    const [channelId, ts, text] = [str(event.channel), str(event.ts), str(event.text)];
    if (!channelId || !ts || !text) return undefined;
    const bot = str(obj(Array.isArray(body.authorizations) ? body.authorizations[0] : undefined).user_id);
    message = {
      channelId,
      ts,
      threadTs: str(event.thread_ts) ?? ts,
      text,
      ...(bot ? { botUserId: bot } : {}),
      dm: event.channel_type === "im",
    };
  }
  const job = requestOf(
    route,
    body,
    typeof d.receivedAt === "number" ? d.receivedAt : Date.now(),
    Object.fromEntries(
      Object.entries(obj(d.log)).filter((e): e is [string, string] => typeof e[1] === "string"),
    ),
    obj(d.team) as InteractiveJob["team"],
    message ? { id, message } : undefined,
  );
  job.id = id;
  if (d.busy === true) job.notice = "response_url";
  return job;
}
