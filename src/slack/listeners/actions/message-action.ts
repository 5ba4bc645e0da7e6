import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { WorkspaceRef } from "../../../store/keys.ts";
import { errorReply } from "../../error-reply.ts";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";

export type MessageActionArgs = SlackActionMiddlewareArgs<BlockAction> &
  AllMiddlewareArgs & { ref: WorkspaceRef };

/**
 * The frame of every click on a digest message: ack at once, then the work, and any error becomes
 * a private reply on the message's response_url (never a rewrite of the message itself).
 */
export function messageAction(deps: AppServices, work: (args: MessageActionArgs) => Promise<void>) {
  return async (args: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs) => {
    await args.ack();
    try {
      await work({ ...args, ref: workspaceOf(args.context) });
    } catch (err) {
      const log = deps.logger.child({ userId: args.body.user.id, action: args.body.actions[0]?.action_id });
      await args
        .respond({ ...errorReply(err, log), response_type: "ephemeral", replace_original: false })
        .catch((e: unknown) => log.error({ err: e }, "could not send the error reply"));
    }
  };
}
