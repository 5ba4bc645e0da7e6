import type { Context, RespondFn } from "@slack/bolt";
import { AppError } from "../../errors.ts";
import type { RequestClaims } from "../../interactive/claims.ts";
import type { InteractiveJob, InteractiveOutcome } from "../../interactive/types.ts";
import { type Logger, withLogContext } from "../../log.ts";
import { codeOf, type Metrics } from "../../metrics.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import { workspaceOf } from "../workspace.ts";
import { requestContext } from "./context.ts";
import { str } from "./facts.ts";
import { type AcquiredClaim, answeringFacts, type OffloadedEnv } from "./offloaded-answer.ts";
import type { MessageEntry, ViewEntry } from "./types.ts";

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

/** Runs one entry for the job, answering errors in the frame's one reply shape; returns `ok` or the error's code. */
async function execute(
  env: OffloadedEnv,
  job: InteractiveJob,
  ref: WorkspaceRef,
  claim: AcquiredClaim,
  log: Logger,
): Promise<string> {
  const facts = await answeringFacts(env, job, ref, claim, log);
  const ctx = requestContext({ ...env.deps, clock: () => new Date(job.receivedAt) }, facts);
  const started = Date.now();
  try {
    if (job.route.kind === "command") {
      const parsed = env.table.parse(str(job.body.text) ?? "") as { kind: string };
      const entry = env.table.commands.get(parsed.kind);
      if (!entry) throw new AppError("unknown_command", `"${parsed.kind}" is not available here.`);
      await entry.run({
        ...ctx,
        command: parsed,
        body: job.body as never,
        respond: facts.respond as RespondFn,
      });
      ctx.log.info({ kind: parsed.kind, ms: Date.now() - started }, "command handled");
    } else if (job.route.kind === "message") {
      const route = env.table.route(job.body);
      const said = facts.said;
      if (route.kind !== "message" || !said)
        throw new AppError("bad_state", "This message cannot be answered.");
      await (route.entry as MessageEntry).run({ ...ctx, message: said });
    } else if (job.route.kind === "view") {
      const route = env.table.route(job.body);
      const entry = route.kind === "view" ? (route.entry as ViewEntry) : undefined;
      if (!entry?.work) throw new AppError("bad_state", "This form is out of date.");
      await entry.work({ ...ctx, body: job.body as never, view: job.body.view as never });
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
