import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { AppServices } from "../../services.ts";
import { requireChange } from "../../subscriptions/access.ts";
import { loadSubscription } from "../../subscriptions/ops.ts";
import { workspaceOf } from "../../workspace.ts";
import { openSubscribeModal } from "../../subscriptions/modal-open.ts";
import { answerError, fromHome, type Surface } from "../../subscriptions/reply.ts";

/** Edit on a subscription row: the subscribe modal, filled in from the subscription. */
export function subscriptionEdit(deps: AppServices) {
  return async ({
    ack,
    body,
    action,
    client,
    respond,
    context,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs) => {
    await ack();
    const ref = workspaceOf(context);
    const surface: Surface = { deps, client, ref, body, respond: body.response_url ? respond : undefined };
    try {
      const sub = await loadSubscription(deps, ref, (action as ButtonAction).value ?? "");
      const user = await deps.users.get(ref, client, body.user.id);
      requireChange(user, sub, deps.policy, await deps.installerOf(ref));
      await openSubscribeModal({
        deps,
        client,
        ref,
        userId: body.user.id,
        triggerId: body.trigger_id,
        channelId: body.channel?.id,
        edit: sub,
        fromHome: fromHome(body),
      });
    } catch (err) {
      await answerError(surface, err);
    }
  };
}
