import type { Context, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Message } from "../../blockkit/types.ts";
import { isAppError } from "../../errors.ts";
import type { RequestClaim, RequestClaims } from "../../interactive/claims.ts";
import { responseUrlPoster } from "../../interactive/response-url.ts";
import { type InteractiveJob, routeName } from "../../interactive/types.ts";
import type { Logger } from "../../log.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { AppServices } from "../services.ts";
import { bareReply, type RequestFacts } from "./context.ts";
import { factsOf } from "./facts.ts";
import { guardClient } from "./guard-client.ts";
import { messageFacts } from "./message.ts";
import type { RouteTable } from "./routes.ts";

/** What a process that executes handed-off requests provides (a worker process or a thread). */
export interface OffloadedEnv {
  /** This process's services; without `offload`, so the work runs here. */
  deps: AppServices;
  table: RouteTable;
  claims: RequestClaims;
  /** The workspace's bot token, looked up here (jobs never carry one), and a Web API client with it. */
  clientFor(ref: WorkspaceRef): Promise<{ client: WebClient; botToken: string }>;
  now?: () => number;
  /** How long one response_url post may take (SLACK_TIMEOUT_MS) [the poster's 10 s]. */
  slackTimeoutMs?: number;
}

export type AcquiredClaim = Extract<RequestClaim, { state: "acquired" }>;

/**
 * A Web API client whose calls that put something on screen first confirm the claim is still this
 * run's; after a takeover only answers that replace in place go out again.
 */
export async function answeringClient(
  env: OffloadedEnv,
  job: InteractiveJob,
  ref: WorkspaceRef,
  claim: AcquiredClaim,
  log: Logger,
) {
  let confirmed: Promise<boolean> | undefined;
  const outward = async (what: string, repeatable: boolean) => {
    if (claim.sent && !repeatable) {
      log.warn({ what }, "an earlier run may have answered this request; no second message");
      return false;
    }
    confirmed ??= env.claims.confirmSending(ref, job.id, claim.token);
    if (await confirmed) return true;
    log.warn({ what }, "another run took this request over; not answering it again");
    return false;
  };
  const { client: raw, botToken } = await env.clientFor(ref);
  return { client: guardClient(raw, outward), botToken, outward };
}

/**
 * The request's facts as the executor answers it: the person and surface from the job, a Web API
 * client with the workspace's token, and a `respond` on the job's response_url within Slack's rules
 * (past its five uses or thirty minutes the answer goes by the Web API instead). Anything that puts
 * an answer on screen first confirms the claim is still this run's; after a takeover, only answers
 * that replace in place go out again, and for a command every post after the first replaces it.
 */
export async function answeringFacts(
  env: OffloadedEnv,
  job: InteractiveJob,
  body: Record<string, unknown>,
  ref: WorkspaceRef,
  claim: AcquiredClaim,
  log: Logger,
): Promise<RequestFacts> {
  const isCommand = job.route.kind === "command";
  const { client, botToken, outward } = await answeringClient(env, job, ref, claim, log);
  const context = { ...job.team, botToken } as Context;
  // A person's message is answered in its thread; there is no response_url.
  if (job.route.kind === "message" && job.message)
    return {
      ...messageFacts({ context, client }, { userId: job.userId, ...job.message }, job.route.id),
      logFields: {},
    };
  const bare = factsOf({ body: body as never, context, client }, job.route.kind, routeName(job.route));
  const fallback = bareReply(env.deps, { ...bare, respond: undefined }, log, ref);
  const url = job.responseUrl;
  if (!url) return { ...bare, respond: undefined, logFields: {} };
  const poster = responseUrlPoster({
    url,
    receivedAt: job.receivedAt,
    // A busy note on the response_url used one of its five posts; one in the command's ack did not.
    used: job.notice === "response_url" ? 1 : 0,
    now: env.now,
    timeoutMs: env.slackTimeoutMs,
  });
  const respond = async (m: Parameters<RespondFn>[0]) => {
    const msg: Record<string, unknown> = typeof m === "string" ? { text: m } : { ...m };
    // A command's first answer replaces the busy note its ack carried; later ones replace the first.
    if (isCommand && (poster.used > 0 || claim.sent || job.notice === "ack")) msg.replace_original = true;
    if (!(await outward("response_url", isCommand || msg.replace_original === true))) return;
    try {
      await poster.post(msg);
    } catch (err) {
      if (!isAppError(err) || err.code !== "response_url_gone") throw err;
      log.info({ code: err.code }, "response_url spent; answering through the Web API");
      const { response_type: _t, replace_original: _r, delete_original: _d, ...rest } = msg;
      await fallback.message(rest as unknown as Message);
    }
  };
  // Handlers ignore what respond resolves to (Bolt's resolves to the HTTP reply). The request's log
  // fields already ride in the log context.
  return { ...bare, respond: respond as unknown as RespondFn, logFields: {} };
}
