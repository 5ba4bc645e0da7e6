import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { subscriptionList } from "../../../../templates/subscriptions.ts";
import { canManage } from "../../permissions.ts";
import type { AppServices } from "../../services.ts";
import { LIST_PAGE, subscriptionRows } from "../../subscriptions/list.ts";
import { workspaceOf } from "../../workspace.ts";
import { answerError } from "../../subscriptions/reply.ts";

/** "Next page" under the subscription list: the value is the first row of that page. */
export function subscriptionPage(deps: AppServices) {
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
    try {
      const offset = Math.max(0, Math.floor(Number((action as ButtonAction).value) || 0));
      const user = await deps.users.get(ref, client, body.user.id);
      const manager = canManage(user, deps.policy, await deps.installerOf(ref));
      const rows = await subscriptionRows(deps, ref, body.channel?.id, offset);
      await respond({
        response_type: "ephemeral",
        replace_original: true,
        ...subscriptionList(rows, { canManage: manager, editable: true, offset, pageSize: LIST_PAGE }),
      });
    } catch (err) {
      await answerError({ deps, client, ref, body, respond }, err);
    }
  };
}
