import type { Context, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Message } from "../../blockkit/types.ts";
import { isAppError } from "../../errors.ts";
import type { RequestClaim, RequestClaims } from "../../interactive/claims.ts";
import { responseUrlPoster } from "../../interactive/response-url.ts";
import type { InteractiveJob } from "../../interactive/types.ts";
import type { Logger } from "../../log.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { AppServices } from "../services.ts";
import { bareReply, type RequestFacts } from "./context.ts";
import { factsOf, obj, str } from "./facts.ts";
import { guardClient } from "./guard-client.ts";
import { messageFacts, saidMessage } from "./message.ts";
import type { RouteTable } from "./routes.ts";
import type { SaidMessage } from "./types.ts";

/** What a process that executes handed-off requests provides (a worker process or a thread). */
export interface OffloadedEnv {
  /** This process's services; without `offload`, so the work runs here. */
  deps: AppServices;
  table: RouteTable;
  claims: RequestClaims;
  /** The workspace's bot token, looked up here (jobs never carry one), and a Web API client with it. */
  clientFor(ref: WorkspaceRef): Promise<{ client: WebClient; botToken: string }>;
  fetch?: typeof fetch;
  now?: () => number;
}

export type AcquiredClaim = Extract<RequestClaim, { state: "acquired" }>;

const responseUrlOf = (body: Record<string, unknown>) =>
  str(body.response_url) ??
  (Array.isArray(body.response_urls) ? str(obj(body.response_urls[0]).response_url) : undefined);

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
  ref: WorkspaceRef,
  claim: AcquiredClaim,
  log: Logger,
): Promise<RequestFacts & { said?: SaidMessage }> {
  const isCommand = job.route.kind === "command";
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
  const client = guardClient(raw, outward);
  const context = { ...job.team, botToken } as Context;
  const name = job.route.kind === "command" ? job.route.name : job.route.id;
  if (job.route.kind === "message") {
    // The web side let only a person's message through; it is read again here from the same body.
    const said = saidMessage(job.body, name) ?? undefined;
    if (!said) return { context, client, userId: job.userId, logFields: {} };
    return { ...messageFacts({ context, client }, said, name), logFields: {}, said };
  }
  const bare = factsOf({ body: job.body as never, context, client }, job.route.kind, name);
  const fallback = bareReply(env.deps, { ...bare, respond: undefined }, log, ref);
  const url = responseUrlOf(job.body);
  if (!url) return { ...bare, respond: undefined, logFields: {} };
  const poster = responseUrlPoster({
    url,
    receivedAt: job.receivedAt,
    used: job.busy ? 1 : 0,
    fetch: env.fetch,
    now: env.now,
  });
  const respond = async (m: Parameters<RespondFn>[0]) => {
    const msg: Record<string, unknown> = typeof m === "string" ? { text: m } : { ...m };
    if (isCommand && (poster.used > 0 || claim.sent)) msg.replace_original = true;
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
