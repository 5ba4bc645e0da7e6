import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { connectModal } from "../../../../templates/connect-modal.ts";
import { requireManagerUser } from "../../require-manager.ts";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";
import { answerError } from "../../subscriptions/reply.ts";

/** Connect (or Replace key) on the Home tab: the same modal as `/insights connect`, for admins only. */
export function homeConnect(deps: AppServices) {
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
      await requireManagerUser(deps, ref, client, body.user.id, "connect the key");
      const endpoint = await deps.analytics.endpoint().catch(() => undefined);
      await client.views.open({
        trigger_id: body.trigger_id,
        view: connectModal({ endpoint, privateMetadata: JSON.stringify({ channel: body.channel?.id }) }),
      });
    } catch (err) {
      await answerError({ deps, client, ref, body, respond: body.response_url ? respond : undefined }, err);
    }
  };
}
