import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from "@slack/bolt";
import { isAppError } from "../../../errors.ts";
import { SUBSCRIBE_FIELD as F } from "../../../ids.ts";
import type { Scheduled } from "../../../subscriptions/service.ts";
import { canManage, managersOnly } from "../../permissions.ts";
import type { AppServices } from "../../services.ts";
import { channelProblem, channelState } from "../../subscriptions/access.ts";
import { workspaceOf } from "../../workspace.ts";
import { buildSubscribeView, listsWithin, NO_LISTS } from "../../subscriptions/modal-open.ts";
import {
  decodeMeta,
  formFromValues,
  labelsFromValues,
  scheduleErrors,
  scheduleOf,
  signature,
} from "../../subscriptions/modal-state.ts";
import { blockFor, confirmSaved } from "../../subscriptions/modal-confirm.ts";

type Values = Parameters<typeof formFromValues>[0];

/**
 * Subscribe modal submission: inline errors for a bad channel, schedule, zone or range
 * (response_action "errors"); a schedule changed since its preview is shown again with its runs
 * before it is saved (response_action "update"); otherwise create or update, close, and confirm.
 * All checks finish within Slack's 3 s for the ack.
 */
export function subscribeSubmit(deps: AppServices) {
  return async ({
    ack,
    body,
    view,
    client,
    context,
  }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs) => {
    const errors = (e: Record<string, string>) => ack({ response_action: "errors", errors: e });
    const ref = workspaceOf(context);
    const userId = body.user.id;
    const log = deps.logger.child({ teamId: ref.teamId, userId, view: "subscribe" });
    const meta = decodeMeta(view.private_metadata);
    const values = (view.state.values ?? {}) as Values;
    const present = new Set(
      (view.blocks ?? []).map((b) => String((b as { block_id?: string }).block_id ?? "")),
    );
    try {
      const user = await deps.users.get(ref, client, userId);
      const form = formFromValues(values, meta, user.tz);
      const problems = scheduleErrors(form, true);
      if (!form.channelId) problems[F.channel] = "Choose the channel that gets the digest.";
      if (Object.keys(problems).length > 0) return await errors(problems);

      const editing = meta.edit ? await deps.subscriptions.get(ref, meta.edit) : null;
      if (meta.edit && !editing)
        return await errors({ [F.channel]: "This subscription was deleted meanwhile." });
      const manager = canManage(user, deps.policy, await deps.installerOf(ref));
      if (!manager && !(editing && editing.ownerId === userId))
        return await errors({
          [F.channel]: managersOnly("subscribe channels"),
        });

      if (meta.shown !== signature(form)) {
        const lists = (await listsWithin(deps, ref, user.tz, 1_000)) ?? NO_LISTS;
        const notice = `:eyes: The schedule changed since the preview. Check the next runs, then press ${editing ? "Save" : "Subscribe"} again.`;
        return await ack({
          response_action: "update",
          view: buildSubscribeView(deps, form, meta, lists, notice),
        });
      }

      const channelId = form.channelId as string;
      if (!editing || editing.channelId !== channelId) {
        const problem = channelProblem(await channelState(client, channelId));
        if (problem) return await errors({ [F.channel]: problem.message.replace(/`/g, "") });
      }
      const input = {
        channelId,
        schedule: scheduleOf(form),
        time: form.time,
        tz: form.tz,
        range: form.range,
        assetIds: form.assetIds,
        scannerIds: form.scannerIds,
        // Without filter menus in the view, the filters (from the metadata) keep their names.
        filterLabels:
          present.has(F.assets) || present.has(F.scanners)
            ? labelsFromValues(values)
            : (editing?.filterLabels ?? []),
      };
      let saved: Scheduled;
      try {
        saved = editing
          ? await deps.subscriptions.update(ref, editing.id, input)
          : await deps.subscriptions.create(ref, input, userId);
      } catch (err) {
        if (!isAppError(err)) throw err;
        log.info({ code: err.code, field: err.details.field }, "subscription refused");
        return await errors({ [blockFor(err.details.field, form, present)]: err.message });
      }
      await ack();
      log.info(
        { subId: saved.subscription.id, edit: Boolean(editing) },
        editing ? "subscription updated" : "subscription created",
      );
      await confirmSaved(deps, client, ref, userId, meta, saved, editing ? "updated" : "subscribed");
    } catch (err) {
      log.error({ err }, "subscribe modal submission failed");
      await errors({
        [F.channel]: "Something went wrong on our side; nothing was saved. Try again in a moment.",
      }).catch(() => undefined);
    }
  };
}
