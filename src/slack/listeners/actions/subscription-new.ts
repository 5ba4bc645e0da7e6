import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { requireManagerUser } from "../../require-manager.ts";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";
import { openSubscribeModal } from "../../subscriptions/modal-open.ts";
import { answerError, fromHome } from "../../subscriptions/reply.ts";

/** "New subscription" on the Home tab: the subscribe modal with the creator's defaults. */
export function subscriptionNew(deps: AppServices) {
  return async ({
    ack,
    body,
    client,
    respond,
    context,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs) => {
    await ack();
    const ref = workspaceOf(context);
    try {
      await requireManagerUser(deps, ref, client, body.user.id, "subscribe channels");
      await openSubscribeModal({
        deps,
        client,
        ref,
        userId: body.user.id,
        triggerId: body.trigger_id,
        channelId: body.channel?.id,
        fromHome: fromHome(body),
      });
    } catch (err) {
      await answerError({ deps, client, ref, body, respond: body.response_url ? respond : undefined }, err);
    }
  };
}
