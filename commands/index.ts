import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from "@slack/bolt";
import { AppError } from "../src/errors.ts";
import { codeOf } from "../src/metrics.ts";
import { errorReply } from "../src/slack/error-reply.ts";
import type { AppServices } from "../src/slack/services.ts";
import { workspaceOf } from "../src/slack/workspace.ts";
import { connectCommand } from "./connect.ts";
import type { CommandContext, CommandHandler } from "./context.ts";
import { digestCommand } from "./digest.ts";
import { disconnectCommand } from "./disconnect.ts";
import { type Command, parseCommand } from "./grammar.ts";
import { helpCommand } from "./help.ts";
import { pauseCommand, resumeCommand, sendCommand, unsubscribeCommand } from "./manage.ts";
import { statusCommand } from "./status.ts";
import { subscribeCommand } from "./subscribe.ts";
import { subscriptionsCommand } from "./subscriptions.ts";

type Handlers = { [K in Command["kind"]]?: CommandHandler<K> };

/** The registration table: one handler per subcommand. */
export const COMMAND_HANDLERS: Handlers = {
  digest: digestCommand,
  help: helpCommand,
  connect: connectCommand,
  disconnect: disconnectCommand,
  status: statusCommand,
  subscribe: subscribeCommand,
  subscriptions: subscriptionsCommand,
  unsubscribe: unsubscribeCommand,
  pause: pauseCommand,
  resume: resumeCommand,
  send: sendCommand,
};

/** Extra handlers (subscriptions) are added by the composition root that owns their services. */
export function commandListener(deps: AppServices, extra: Handlers = {}) {
  const handlers: Handlers = { ...COMMAND_HANDLERS, ...extra };
  return async ({ ack, body, respond, client, context }: SlackCommandMiddlewareArgs & AllMiddlewareArgs) => {
    // Slack gives 3 s; everything else happens after the ack and answers through response_url.
    await ack();
    const started = Date.now();
    const log = deps.logger.child({
      requestId: body.trigger_id?.slice(-12),
      teamId: body.team_id,
      userId: body.user_id,
    });
    const command = parseCommand(body.text ?? "");
    try {
      if (command.kind === "invalid") {
        const suggestion = command.suggestion ? `${body.command} ${command.suggestion}` : undefined;
        throw new AppError(command.code, command.message, { details: { suggestion } });
      }
      const handler = handlers[command.kind] as CommandHandler | undefined;
      if (!handler)
        throw new AppError("unknown_command", `"${command.kind}" is not available here.`, {
          details: { suggestion: "help" },
        });
      const ref = workspaceOf(context);
      let cached: ReturnType<CommandContext["user"]> | undefined;
      const ctx: CommandContext = {
        command,
        body,
        respond,
        client,
        ref,
        deps: { ...deps, logger: log },
        user: () => {
          cached ??= deps.users.get(ref, client, body.user_id);
          return cached;
        },
      };
      await handler(ctx);
      deps.metrics.commands.inc({ kind: command.kind, outcome: "ok" });
      log.info({ kind: command.kind, ms: Date.now() - started }, "command handled");
    } catch (err) {
      deps.metrics.commands.inc({ kind: command.kind, outcome: codeOf(err) });
      await respond({ response_type: "ephemeral", ...errorReply(err, log, { kind: command.kind }) }).catch(
        (e: unknown) => log.error({ err: e }, "could not send the error reply"),
      );
    }
  };
}
