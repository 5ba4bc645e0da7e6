import type { Context, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Message } from "../../blockkit/types.ts";
import { AppError, isAppError } from "../../errors.ts";
import type { RequestClaim, RequestClaims } from "../../interactive/claims.ts";
import { responseUrlPoster } from "../../interactive/response-url.ts";
import type { InteractiveJob, InteractiveOutcome } from "../../interactive/types.ts";
import { type Logger, withLogContext } from "../../log.ts";
import { codeOf, type Metrics } from "../../metrics.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { AppServices } from "../services.ts";
import { workspaceOf } from "../workspace.ts";
import { bareReply, requestContext } from "./context.ts";
import { factsOf, obj, str } from "./facts.ts";
import { guardClient } from "./guard-client.ts";
import type { RouteTable } from "./routes.ts";

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes the request's claim, waiting while a live run holds it (at most a few leases). */
async function acquire(claims: RequestClaims, ref: WorkspaceRef, id: string) {
  const deadline = Date.now() + claims.leaseMs * 3 + 1_000;
  for (;;) {
    const c = await claims.claim(ref, id);
    if (c.state !== "busy") return c;
    if (Date.now() > deadline) throw new AppError("unavailable", "Another run still holds this request.");
    await sleep(Math.min(c.retryInMs, 500));
  }
}

const responseUrlOf = (body: Record<string, unknown>) =>
  str(body.response_url) ??
  (Array.isArray(body.response_urls) ? str(obj(body.response_urls[0]).response_url) : undefined);

/** Runs one entry for the job, answering errors in the frame's one reply shape; returns `ok` or the error's code. */
async function execute(
  env: OffloadedEnv,
  job: InteractiveJob,
  ref: WorkspaceRef,
  claim: Extract<RequestClaim, { state: "acquired" }>,
  log: Logger,
): Promise<string> {
  const name = job.route.kind === "command" ? job.route.name : job.route.id;
  const isCommand = job.route.kind === "command";
  let confirmed: Promise<boolean> | undefined;
  const outward = async (what: string, idempotent: boolean) => {
    // An earlier run got as far as answering: only what replaces in place may go out again.
    if (claim.sent && !idempotent) {
      log.warn({ what }, "an earlier run may have answered this request; no second message");
      return false;
    }
    // This run stalled and another took the request over: it sends nothing at all.
    confirmed ??= env.claims.confirmSending(ref, job.id, claim.token);
    if (await confirmed) return true;
    log.warn({ what }, "another run took this request over; not answering it again");
    return false;
  };
  const { client: raw, botToken } = await env.clientFor(ref);
  const client = guardClient(raw, outward);
  const context = { ...job.team, botToken } as Context;
  const bare = factsOf({ body: job.body as never, context, client }, job.route.kind, name);
  // Past the url's uses or its thirty minutes, the answer goes by the Web API instead.
  const fallback = bareReply(env.deps, { ...bare, respond: undefined }, log, ref);
  const url = responseUrlOf(job.body);
  const poster = url
    ? responseUrlPoster({
        url,
        receivedAt: job.receivedAt,
        used: job.busy ? 1 : 0,
        fetch: env.fetch,
        now: env.now,
      })
    : undefined;
  const respond = poster
    ? async (m: Parameters<RespondFn>[0]) => {
        const msg: Record<string, unknown> = typeof m === "string" ? { text: m } : { ...m };
        // One message per command: a later post (after the busy note, or a run that died) replaces the earlier one.
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
      }
    : undefined;
  // Handlers ignore what respond resolves to (Bolt's resolves to the HTTP reply).
  const respondFn = respond as unknown as RespondFn | undefined;
  const ctx = requestContext(
    { ...env.deps, clock: () => new Date(job.receivedAt) },
    { ...bare, respond: respondFn, logFields: {} },
  );
  const started = Date.now();
  try {
    if (job.route.kind === "command") {
      const parsed = env.table.parse(str(job.body.text) ?? "") as { kind: string };
      const entry = env.table.commands.get(parsed.kind);
      if (!entry) throw new AppError("unknown_command", `"${parsed.kind}" is not available here.`);
      await entry.run({ ...ctx, command: parsed, body: job.body as never, respond: respondFn as RespondFn });
      ctx.log.info({ kind: parsed.kind, ms: Date.now() - started }, "command handled");
    } else {
      const route = env.table.route(job.body);
      if (route.kind !== "action") throw new AppError("bad_state", "This control is out of date.");
      const actions = job.body.actions as unknown[];
      await route.entry.run({ ...ctx, body: job.body as never, action: actions[0] as never } as never);
    }
    return "ok";
  } catch (err) {
    await ctx.reply.error(err);
    return codeOf(err);
  }
}

/**
 * Runs a handed-off request where it was sent (a worker process or a thread): takes the request's
 * claim (a request answered already is skipped), rebuilds the handler's context from the job, runs
 * the entry, and answers through the request's response_url within Slack's rules (else the Web
 * API). Every log line carries the request's own fields.
 */
export function runOffloaded(env: OffloadedEnv, job: InteractiveJob): Promise<InteractiveOutcome> {
  const name = job.route.kind === "command" ? job.route.name : job.route.id;
  const result = (outcome: string): InteractiveOutcome => ({
    id: job.id,
    kind: job.route.kind,
    name,
    outcome,
  });
  return withLogContext(job.log, async () => {
    const log = env.deps.logger;
    let ref: WorkspaceRef;
    try {
      ref = workspaceOf(job.team as Context);
    } catch (err) {
      log.warn({ code: codeOf(err) }, "handed-off request names no workspace; dropped");
      return result(codeOf(err));
    }
    const claim = await acquire(env.claims, ref, job.id);
    if (claim.state === "done") {
      log.info("request already answered by an earlier run");
      return result("duplicate");
    }
    const renew = setInterval(
      () => {
        env.claims
          .renew(ref, job.id, claim.token)
          .catch((err: unknown) => log.warn({ err }, "claim renewal failed"));
      },
      Math.max(100, Math.floor(env.claims.leaseMs / 3)),
    );
    try {
      const outcome = await execute(env, job, ref, claim, log);
      await env.claims.finish(ref, job.id, claim.token);
      return result(outcome);
    } finally {
      clearInterval(renew);
    }
  });
}

/** Counts a finished run the way the frame counts one it ran itself. */
export function countOffloaded(metrics: Metrics, o: InteractiveOutcome): void {
  if (o.outcome === "duplicate") return;
  if (o.kind === "command") metrics.commands.inc({ kind: o.name, outcome: o.outcome });
  metrics.requests.inc({ kind: o.kind, outcome: o.outcome });
}
