import type { Context, RespondFn } from "@slack/bolt";
import { AppError, isAppError } from "../../errors.ts";
import type { RequestClaims } from "../../interactive/claims.ts";
import { REDIS_RETRY_MS } from "../../interactive/stream.ts";
import { type InteractiveJob, type InteractiveOutcome, routeName } from "../../interactive/types.ts";
import { type Logger, withLogContext } from "../../log.ts";
import { codeOf, type Metrics } from "../../metrics.ts";
import { isWriteUnconfirmed } from "../../store/confirm-writes.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import { isRedisUnavailable } from "../../store/redis-client.ts";
import { refusalOf } from "../refusal.ts";
import { workspaceOf } from "../workspace.ts";
import { checkAccess } from "./access.ts";
import { requestContext } from "./context.ts";
import { stepFailure } from "./function.ts";
import { bodyOf } from "./job-body.ts";
import {
  type AcquiredClaim,
  answeringClient,
  answeringFacts,
  type OffloadedEnv,
} from "./offloaded-answer.ts";
import type { ActionEntry, EventEntry, FunctionEntry, MessageEntry, ViewEntry } from "./types.ts";

export type { OffloadedEnv } from "./offloaded-answer.ts";

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

/** Slack's answers when a question's conversation or thread no longer takes replies. */
const CONVERSATION_GONE = new Set(["channel_not_found", "thread_not_found", "is_archived", "not_in_channel"]);

/** An event's entry (an unfurl): nobody waits on a reply, so errors are logged. */
async function runEvent(
  env: OffloadedEnv,
  job: InteractiveJob,
  entry: EventEntry,
  ref: WorkspaceRef,
  claim: AcquiredClaim,
  log: Logger,
): Promise<string> {
  try {
    const { client, botToken } = await answeringClient(env, job, ref, claim, log);
    await entry.run({
      deps: { ...env.deps, logger: log, clock: () => new Date(job.receivedAt) },
      ref,
      client,
      log,
      event: job.event ?? { type: job.route.kind },
      context: { ...job.team, botToken } as Context,
    });
    return "ok";
  } catch (err) {
    log.error({ err }, "event handling failed");
    return codeOf(err);
  }
}

/** A workflow step's run: completed with the entry's outputs, or failed with words its owner can act on. */
async function runStep(
  env: OffloadedEnv,
  job: InteractiveJob,
  entry: FunctionEntry,
  ref: WorkspaceRef,
  claim: AcquiredClaim,
  log: Logger,
): Promise<string> {
  const executionId = job.step?.executionId ?? "";
  const { client } = await answeringClient(env, job, ref, claim, log);
  try {
    const outputs = await entry.run({
      deps: { ...env.deps, logger: log, clock: () => new Date(job.receivedAt) },
      ref,
      client,
      log,
      inputs: job.step?.inputs ?? {},
      executionId,
    });
    await client.functions.completeSuccess({ function_execution_id: executionId, outputs });
    log.info("step completed");
    return "ok";
  } catch (err) {
    if (isAppError(err) && err.code !== "internal") log.info({ code: err.code }, "step failed");
    else log.error({ err }, "step failed");
    await client.functions
      .completeError({ function_execution_id: executionId, error: stepFailure(err) })
      // The run then ends by Slack's own timeout; nothing else can reach the workflow's owner.
      .catch((e: unknown) => log.error({ err: e }, "could not report the step's failure to Slack"));
    return codeOf(err);
  }
}

/**
 * Runs one entry for the job: the access check the acking process left to us, then the handler, with
 * errors answered in the frame's one reply shape; returns `ok` or the error's code.
 */
async function execute(
  env: OffloadedEnv,
  job: InteractiveJob,
  ref: WorkspaceRef,
  claim: AcquiredClaim,
  log: Logger,
): Promise<string> {
  const body = bodyOf(job, env.table.commandName);
  if (job.route.kind === "event" || job.route.kind === "function") {
    const route = env.table.route(body);
    if (route.kind === "event") return runEvent(env, job, route.entry as EventEntry, ref, claim, log);
    if (route.kind === "function") return runStep(env, job, route.entry as FunctionEntry, ref, claim, log);
    log.warn("handed-off event or step no entry answers any more; dropped");
    return "unrouted";
  }
  const facts = await answeringFacts(env, job, body, ref, claim, log);
  const ctx = requestContext({ ...env.deps, clock: () => new Date(job.receivedAt) }, facts);
  const started = Date.now();
  try {
    if (job.route.kind === "command") {
      const parsed = env.table.parse(job.command?.text ?? "") as { kind: string };
      const entry = env.table.commands.get(parsed.kind);
      if (!entry) throw new AppError("unknown_command", `"${parsed.kind}" is not available here.`);
      await checkAccess(entry.access, ctx);
      await entry.run({ ...ctx, command: parsed, body: body as never, respond: facts.respond as RespondFn });
      ctx.log.info({ kind: parsed.kind, ms: Date.now() - started }, "command handled");
    } else if (job.route.kind === "message") {
      const route = env.table.route(body);
      if (route.kind !== "message" || !job.message)
        throw new AppError("bad_state", "This message cannot be answered.");
      const entry = route.entry as MessageEntry;
      await checkAccess(entry.access, ctx);
      await entry.run({ ...ctx, message: { userId: job.userId, ...job.message } });
    } else if (job.route.kind === "view") {
      const route = env.table.route(body);
      const entry = route.kind === "view" ? (route.entry as ViewEntry) : undefined;
      if (!entry?.work) throw new AppError("bad_state", "This form is out of date.");
      await checkAccess(entry.access, ctx);
      await entry.work({ ...ctx, body: body as never, view: body.view as never });
    } else {
      const route = env.table.route(body);
      if (route.kind !== "action") throw new AppError("bad_state", "This control is out of date.");
      const entry = route.entry as ActionEntry;
      await checkAccess(entry.access, ctx);
      await entry.run({ ...ctx, body: body as never, action: job.action as never });
    }
    return "ok";
  } catch (err) {
    // Nothing may go out, an error note neither: the request runs again (consumer.ts). So does one
    // that met Redis away, for a while: its answer, once Redis is back, beats "something went wrong".
    if (isWriteUnconfirmed(err) || (isRedisUnavailable(err) && Date.now() - job.receivedAt < REDIS_RETRY_MS))
      throw err;
    const gone = job.route.kind === "message" ? refusalOf(err)?.error : undefined;
    if (gone && CONVERSATION_GONE.has(gone)) {
      // Deleted, archived or left before the answer: the reply would meet the same refusal.
      log.info({ code: gone }, "the question's conversation or thread is gone; not answered");
      return gone;
    }
    await ctx.reply.error(err);
    return codeOf(err);
  }
}

/**
 * Runs a handed-off request where it was sent (a worker process or a thread): takes the request's
 * claim (a request answered already is skipped), rebuilds the handler's context from the job, checks
 * access, runs the entry, and answers through the request's response_url within Slack's rules (else
 * the Web API). Every log line carries the request's own fields.
 */
export function runOffloaded(env: OffloadedEnv, job: InteractiveJob): Promise<InteractiveOutcome> {
  const result = (outcome: string): InteractiveOutcome => ({
    id: job.id,
    kind: job.route.kind,
    name: routeName(job.route),
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
    // A claim no replica confirmed stops every answer of this run, whatever the handler does with
    // the error: the run then fails, unfinished, and the request is run again (consumer.ts).
    let unconfirmed: unknown;
    const claims: RequestClaims = {
      ...env.claims,
      confirmSending: (r, id, token) =>
        env.claims.confirmSending(r, id, token).catch((err: unknown) => {
          if (isWriteUnconfirmed(err)) unconfirmed = err;
          throw err;
        }),
    };
    const renew = setInterval(
      () => {
        env.claims
          .renew(ref, job.id, claim.token)
          .catch((err: unknown) => log.warn({ err }, "claim renewal failed"));
      },
      Math.max(100, Math.floor(env.claims.leaseMs / 3)),
    );
    try {
      const outcome = await execute({ ...env, claims }, job, ref, claim, log).catch((err: unknown) => {
        throw unconfirmed ?? err;
      });
      if (unconfirmed) throw unconfirmed;
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
