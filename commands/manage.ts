import { mrkdwn } from "../src/blockkit/text.ts";
import { runSubscriptionOp, type SubscriptionOp } from "../src/slack/subscriptions/ops.ts";
import type { CommandHandler } from "./context.ts";

type ManageKind = "unsubscribe" | "pause" | "resume" | "send";

const OPS: Record<ManageKind, SubscriptionOp> = {
  unsubscribe: "delete",
  pause: "pause",
  resume: "resume",
  send: "send",
};

/**
 * `/insights unsubscribe|pause|resume|send <id>`: one handler for the four, since they differ only
 * in the operation. The owner or a manager may use them; `send` delivers one digest now (a test).
 */
export function manageCommand<K extends ManageKind>(kind: K): CommandHandler<K> {
  return async (ctx) => {
    // The grammar types the four as one variant (kind: union), which Extract<Command, { kind: K }> misses.
    const { id } = ctx.command as unknown as { id: string };
    const user = await ctx.user();
    const outcome = await runSubscriptionOp(ctx.deps, ctx.client, ctx.ref, user, id, OPS[kind]);
    await ctx.respond({
      response_type: "ephemeral",
      ...(outcome.message ?? {
        text: outcome.text,
        blocks: [{ type: "section", text: mrkdwn(outcome.text) }],
      }),
    });
  };
}

export const unsubscribeCommand = manageCommand("unsubscribe");
export const pauseCommand = manageCommand("pause");
export const resumeCommand = manageCommand("resume");
export const sendCommand = manageCommand("send");
