import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";
import { buildSubscribeView, listsWithin } from "../../subscriptions/modal-open.ts";
import { decodeMeta, formFromValues } from "../../subscriptions/modal-state.ts";

/** How long a redraw waits for the filter lists (usually cached) before drawing without them. */
const LISTS_BUDGET_MS = 2_000;

/**
 * A schedule input of the subscribe modal changed (frequency, days, cron, time, zone): redraw the
 * modal with the next runs of what is filled in now, and the inputs that frequency needs. The
 * view's hash makes Slack drop this redraw if a newer one got there first.
 */
export function subscribeModalChange(deps: AppServices) {
  return async ({
    ack,
    body,
    client,
    context,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs) => {
    await ack();
    const view = body.view;
    if (!view) return;
    const ref = workspaceOf(context);
    const log = deps.logger.child({ teamId: ref.teamId, userId: body.user.id, view: "subscribe" });
    try {
      const meta = decodeMeta(view.private_metadata);
      const user = await deps.users.get(ref, client, body.user.id);
      const values = (view.state?.values ?? {}) as Parameters<typeof formFromValues>[0];
      const form = formFromValues(values, meta, user.tz);
      const lists = (await listsWithin(deps, ref, user.tz, LISTS_BUDGET_MS)) ?? {
        assets: null,
        scanners: null,
      };
      await client.views.update({
        view_id: view.id,
        hash: view.hash,
        view: buildSubscribeView(deps, form, meta, lists),
      });
    } catch (err) {
      // A lost race (hash_conflict) or an expired view: the user's next change redraws it.
      log.info({ err }, "subscribe modal not redrawn");
    }
  };
}
