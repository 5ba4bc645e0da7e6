import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { AppServices } from "../../services.ts";
import { runSubscriptionOp, type SubscriptionOp } from "../../subscriptions/ops.ts";
import { workspaceOf } from "../../workspace.ts";
import { answer, answerError, type Surface } from "../../subscriptions/reply.ts";

/**
 * Pause, Resume, Send now and Delete on a subscription row (Home tab or list); the button's value is
 * the subscription id. Permission is checked again here: a button is no proof of anything.
 */
export function subscriptionButton(deps: AppServices, op: SubscriptionOp) {
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
      const user = await deps.users.get(ref, client, body.user.id);
      const outcome = await runSubscriptionOp(
        deps,
        client,
        ref,
        user,
        (action as ButtonAction).value ?? "",
        op,
      );
      await answer(surface, outcome.text);
    } catch (err) {
      await answerError(surface, err);
    }
  };
}
