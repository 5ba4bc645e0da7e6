import type { RespondFn } from "@slack/bolt";
import { outOfDateMessage } from "../../../templates/error-message.ts";
import { AppError } from "../../errors.ts";
import { codeOf } from "../../metrics.ts";
import type { AppServices } from "../services.ts";
import { workspaceOf } from "../workspace.ts";
import { checkAccess } from "./access.ts";
import { bareReply, requestContext } from "./context.ts";
import { type Args, factsOf, str, teamOfContext } from "./facts.ts";
import { handOffAcked } from "./fast-path.ts";
import { failUnknownStep, runFunction } from "./function.ts";
import { dispatchMessage } from "./message.ts";
import type { RouteTable } from "./routes.ts";
import {
  type ActionEntry,
  type EventEntry,
  type FunctionEntry,
  handsOff,
  type MessageEntry,
  type OptionsEntry,
  type ViewEntry,
} from "./types.ts";
import { fieldErrors, isFieldRefusal } from "./view-answer.ts";

type Body = Record<string, unknown>;

/** Slack drops an options reply after 3 s: answer (empty, if need be) before then. */
const OPTIONS_BUDGET_MS = 2_500;

/**
 * The one frame every request from Slack goes through: ack within Slack's limit, load the workspace
 * and the person, apply the entry's access level, run the handler, and turn any error into the one
 * reply shape. Handlers never ack, never check access and never catch to reply: they cannot forget.
 */
export function createDispatcher(deps: AppServices, table: RouteTable) {
  const count = (kind: string, outcome: string) => deps.metrics.requests.inc({ kind, outcome });

  const ack = (args: Args) => async (response?: unknown) => {
    await args.ack?.(response);
  };

  async function command(args: Args): Promise<void> {
    const body = args.body as unknown as Body;
    // Parsed before the ack: a command whose work is handed off may carry the busy note in its ack.
    let parsed: { kind: string } | undefined;
    let parseError: unknown;
    try {
      parsed = table.parse(str(body.text) ?? "") as { kind: string };
    } catch (err) {
      parseError = err;
    }
    const found = parsed ? table.commands.get(parsed.kind) : undefined;
    const offloaded = found && handsOff(found) ? deps.offload : undefined;
    if (parsed && offloaded) {
      await handOffAcked(
        { ...deps, offload: offloaded },
        body,
        { kind: "command", name: parsed.kind },
        ack(args),
      );
      return;
    }
    await args.ack?.();
    const facts = factsOf(args, "command", "");
    let name = parsed?.kind ?? "invalid";
    let reply = bareReply(deps, facts, deps.logger.child(facts.logFields));
    try {
      if (!parsed) throw parseError;
      name = parsed.kind;
      const entry = table.commands.get(name);
      if (!entry)
        throw new AppError("unknown_command", `"${name}" is not available here.`, {
          details: { suggestion: "help" },
        });
      const ctx = requestContext(deps, { ...facts, logFields: { ...facts.logFields, command: name } });
      reply = ctx.reply;
      await checkAccess(entry.access, ctx);
      const started = Date.now();
      await entry.run({
        ...ctx,
        command: parsed,
        body: args.body as never,
        respond: facts.respond as RespondFn,
      });
      ctx.log.info({ kind: name, ms: Date.now() - started }, "command handled");
      deps.metrics.commands.inc({ kind: name, outcome: "ok" });
      count("command", "ok");
    } catch (err) {
      deps.metrics.commands.inc({ kind: name, outcome: codeOf(err) });
      count("command", codeOf(err));
      await reply.error(err);
    }
  }

  async function action(args: Args, entry: ActionEntry, id: string): Promise<void> {
    // Digest work leaves the acking event loop (src/interactive/): access is checked where it runs.
    if (handsOff(entry) && deps.offload) {
      await handOffAcked(
        { ...deps, offload: deps.offload },
        args.body as unknown as Body,
        { kind: "action", id },
        ack(args),
      );
      return;
    }
    await args.ack?.();
    const facts = factsOf(args, "action", id);
    let reply = bareReply(deps, facts, deps.logger.child(facts.logFields));
    try {
      const ctx = requestContext(deps, facts);
      reply = ctx.reply;
      await checkAccess(entry.access, ctx);
      const body = args.body as unknown as { actions: unknown[] };
      await entry.run({ ...ctx, body: args.body as never, action: body.actions[0] as never });
      count("action", "ok");
    } catch (err) {
      count("action", codeOf(err));
      await reply.error(err);
    }
  }

  async function view(args: Args, entry: ViewEntry, id: string): Promise<void> {
    const facts = factsOf(args, "view", id);
    const log = deps.logger.child(facts.logFields);
    const blocks = ((args.body as { view?: { blocks?: unknown } }).view?.blocks ?? []) as {
      type?: string;
      block_id?: string;
    }[];
    // Field errors, whoever finds them (the handler, or this frame refusing the person), take one way.
    const refuse = async (errors: Record<string, string>, outcome: string) => {
      await args.ack?.(fieldErrors(errors, blocks, entry.errorBlock));
      log.info({ fields: Object.keys(errors), outcome }, "modal answered with field errors");
      count("view", outcome);
    };
    let after: (() => Promise<void>) | undefined;
    try {
      // The answer is the ack itself: nothing Slack-bound may run before it.
      const ctx = requestContext(deps, facts, { beforeAck: true });
      await checkAccess(entry.access, ctx);
      const viewCtx = {
        ...ctx,
        body: args.body as never,
        view: (args.body as unknown as { view: never }).view,
      };
      const result = await entry.run(viewCtx);
      if (result.errors) return await refuse(result.errors, "field_errors");
      await args.ack?.(result.answer);
      after = result.after;
      const work = entry.work;
      if (work) {
        // The submission's work leaves the acking event loop once the modal has its answer.
        const before = after;
        after = async () => {
          await before?.();
          if (!deps.offload) return work(viewCtx).catch((err: unknown) => ctx.reply.error(err));
          await handOffAcked(
            { ...deps, offload: deps.offload },
            args.body as unknown as Body,
            { kind: "view", id },
            async () => {},
            teamOfContext(args),
            { busyNote: (text) => ctx.reply.notice(text), failed: (err) => ctx.reply.error(err) },
          );
        };
      }
      count("view", "ok");
    } catch (err) {
      if (isFieldRefusal(err)) {
        await refuse({ [entry.errorBlock]: err.message }, err.code);
        // Looked up now, after the ack, so the next submission finds the user known.
        if (err.code === "user_not_checked")
          await deps.users.get(workspaceOf(args.context), facts.client, facts.userId).catch(() => undefined);
        return;
      }
      count("view", codeOf(err));
      log.error({ err }, "modal submission failed");
      await args.ack?.(
        fieldErrors(
          {
            [entry.errorBlock]: "Something went wrong on our side; nothing was saved. Try again in a moment.",
          },
          blocks,
          entry.errorBlock,
        ),
      );
      return;
    }
    // The modal is closed (or redrawn) by now; what follows only tells the person how it went.
    await after?.().catch((err: unknown) => log.warn({ err }, "after a modal submission"));
  }

  async function options(args: Args, entry: OptionsEntry, id: string): Promise<void> {
    const facts = factsOf(args, "options", id);
    const log = deps.logger.child(facts.logFields);
    const work = (async () => {
      const ctx = requestContext(deps, facts);
      await checkAccess(entry.access, ctx);
      return entry.run({ ...ctx, body: args.body as never });
    })();
    const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), OPTIONS_BUDGET_MS).unref());
    try {
      const reply = await Promise.race([work, late]);
      if (!reply) log.warn("options reply timed out; answered empty");
      await args.ack?.(reply ?? { options: [] });
      count("options", reply ? "ok" : "timeout");
    } catch (err) {
      log.info({ code: codeOf(err) }, "options lookup failed; answered empty");
      await args.ack?.({ options: [] });
      count("options", codeOf(err));
    }
    work.catch(() => undefined);
  }

  async function event(args: Args, entry: EventEntry, id: string): Promise<void> {
    // Bolt has acknowledged the event already: Slack expects no body for events.
    const log = deps.logger.child({ teamId: args.context.teamId, event: id });
    try {
      const ref = workspaceOf(args.context);
      if (entry.optional && (await deps.redis.exists(deps.keys.eventsLimited(ref))) === 1) {
        log.info("optional event work skipped while Slack rate limits this workspace's events");
        count("event", "shed");
        return;
      }
      const body = args.body as unknown as { event: EventEntryEvent };
      if (handsOff(entry) && deps.offload) {
        await handOffAcked(
          { ...deps, offload: deps.offload },
          body as unknown as Body,
          { kind: "event", id },
          async () => {},
          teamOfContext(args),
        );
        return;
      }
      await entry.run({
        deps: { ...deps, logger: log },
        ref,
        client: args.client,
        log,
        event: body.event,
        context: args.context,
      });
      count("event", "ok");
    } catch (err) {
      count("event", codeOf(err));
      log.error({ err }, "event handling failed");
    }
  }

  /** Nobody answers this id: ack at once, and tell a person who clicked that the message is stale. */
  async function unrouted(args: Args, type: string, id: string): Promise<void> {
    await args.ack?.(type === "block_suggestion" ? { options: [] } : undefined);
    const facts = factsOf(args, "unrouted", id);
    const log = deps.logger.child({ ...facts.logFields, type });
    log.info("request not routed: answered as out of date");
    count("unrouted", type.startsWith("event:") ? "event" : type);
    // Events, closed modals and type-ahead have nobody waiting for a message.
    if (type.startsWith("event:") || type === "view_closed" || type === "block_suggestion" || !facts.userId)
      return;
    let ref: ReturnType<typeof workspaceOf> | undefined;
    try {
      ref = workspaceOf(args.context);
    } catch {
      ref = undefined;
    }
    await bareReply(deps, facts, log, ref).message(outOfDateMessage());
  }

  return async function dispatch(args: Args): Promise<void> {
    const route = table.route(args.body as unknown as Body);
    switch (route.kind) {
      case "command":
        return command(args);
      case "action":
        return action(args, route.entry as ActionEntry, route.id);
      case "view":
        return view(args, route.entry as ViewEntry, route.id);
      case "options":
        return options(args, route.entry as OptionsEntry, route.id);
      case "event":
        return event(args, route.entry as EventEntry, route.id);
      case "function":
        return runFunction(deps, args, route.entry as FunctionEntry, route.id, (team) =>
          handOffAcked(
            { ...deps, offload: deps.offload as NonNullable<AppServices["offload"]> },
            args.body as unknown as Body,
            { kind: "function", id: route.id },
            async () => {},
            team,
          ),
        );
      case "message":
        return dispatchMessage(deps, args, route.entry as MessageEntry, route.id, count);
      case "unrouted":
        if (route.type === "event:function_executed") return failUnknownStep(deps, args, route.id);
        return unrouted(args, route.type, route.id);
    }
  };
}

type EventEntryEvent = { type: string } & Record<string, unknown>;
