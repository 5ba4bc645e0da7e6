import { isAppError } from "../../../errors.ts";
import { CALLBACK, SUBSCRIBE_FIELD as F } from "../../../ids.ts";
import type { Scheduled } from "../../../subscriptions/service.ts";
import { onView, type ViewResult } from "../../frame/index.ts";
import { managersOnly } from "../../permissions.ts";
import { channelProblem, checkChannel, knownChannelState } from "../../subscriptions/access.ts";
import { blockFor, confirmPaused, confirmSaved } from "../../subscriptions/modal-confirm.ts";
import { buildSubscribeView, listsWithin, NO_LISTS } from "../../subscriptions/modal-open.ts";
import {
  decodeMeta,
  formFromValues,
  labelsFromValues,
  scheduleErrors,
  scheduleOf,
  signature,
} from "../../subscriptions/modal-state.ts";
import { dmOf } from "../../subscriptions/personal.ts";

type Values = Parameters<typeof formFromValues>[0];

/**
 * The modal's answer is the ack, due within Slack's 3 s. The one Slack call it may wait for (opening
 * the person's DM, when opening the modal did not) gets 1.5 s of it, not the Web API's own deadline.
 */
const BEFORE_ACK_MS = 1_500;
const SLACK_LATE = "Slack did not answer in time to check this; nothing was saved. Press the button again.";
async function beforeAck<T>(work: Promise<T>): Promise<T | null> {
  work.catch(() => undefined);
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), BEFORE_ACK_MS).unref());
  return Promise.race([work, late]);
}

const inline = (errors: Record<string, string>): ViewResult => ({ errors });

/**
 * Subscribe modal submission: inline errors for a bad channel, schedule, zone or range
 * (response_action "errors"); a schedule changed since its preview is shown again with its runs
 * before it is saved (response_action "update"); otherwise create or update, close, and confirm.
 * All checks finish within Slack's 3 s for the answer. Managers may create; the owner of a
 * subscription may edit it.
 */
export const subscribeSubmit = onView({
  id: CALLBACK.subscribeModal,
  access: "reader",
  errorBlock: F.channel,
  async run(ctx) {
    const { deps, view, ref, log, userId } = ctx;
    const meta = decodeMeta(view.private_metadata);
    const values = (view.state.values ?? {}) as Values;
    const present = new Set(
      (view.blocks ?? []).map((b) => String((b as { block_id?: string }).block_id ?? "")),
    );
    const user = await ctx.user();
    const form = formFromValues(values, meta, user.tz);
    const problems = scheduleErrors(form, true);
    if (!form.channelId && !form.personal) problems[F.channel] = "Choose the channel that gets the digest.";
    if (Object.keys(problems).length > 0) return inline(problems);

    // A personal digest has no channel input; its refusals go on the range, which every variant has.
    const top = form.personal ? F.range : F.channel;
    const editing = meta.edit ? await deps.subscriptions.get(ref, meta.edit) : null;
    if (meta.edit && !editing) return inline({ [top]: "This subscription was deleted meanwhile." });
    // Anyone who may read digests may send them to themselves; channels are for managers.
    const own = editing ? editing.ownerId === userId : form.personal === true;
    if (!own && !(await ctx.isManager())) return inline({ [top]: managersOnly("subscribe channels") });

    if (meta.shown !== signature(form)) {
      const lists = (await listsWithin(deps, ref, user.tz, 1_000)) ?? NO_LISTS;
      const notice = `:eyes: The schedule changed since the preview. Check the next runs, then press ${editing ? "Save" : "Subscribe"} again.`;
      return {
        answer: { response_action: "update", view: buildSubscribeView(deps, form, meta, lists, notice) },
      };
    }

    // Answered without waiting on Slack: the DM was opened, and the channel checked, when the modal
    // opened or the channel was picked. A channel nobody checked lately is checked after the answer;
    // a DM opening the modal could not make is tried within the answer's bound.
    const channelId = form.personal
      ? (editing?.channelId ?? (await beforeAck(dmOf(deps, ctx.client, ref, userId))))
      : (form.channelId as string);
    if (!channelId) return inline({ [top]: SLACK_LATE });
    let unchecked = false;
    if (!form.personal && (!editing || editing.channelId !== channelId)) {
      const known = await knownChannelState(deps, ref, channelId);
      const problem = known ? channelProblem(known) : null;
      if (problem) return inline({ [F.channel]: problem.message.replace(/`/g, "") });
      unchecked = known === null;
    }
    const input = {
      channelId,
      schedule: scheduleOf(form),
      time: form.time,
      tz: form.tz,
      range: form.range,
      assetIds: form.assetIds,
      scannerIds: form.scannerIds,
      condition: form.condition,
      mode: form.mode,
      style: form.style,
      // Present even when undefined: an edit back to the workspace's setting clears the choice.
      chart: form.chart === "default" ? undefined : form.chart,
      // Without filter menus in the view, the filters (from the metadata) keep their names.
      filterLabels:
        present.has(F.assets) || present.has(F.scanners)
          ? // The form lists assets only: asset groups an edit keeps keep their names.
            [...(editing?.assetGroups ?? []).map((g) => `${g}/*`), ...labelsFromValues(values)]
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
      return inline({ [blockFor(err.details.field, form, present)]: err.message });
    }
    log.info(
      { subId: saved.subscription.id, edit: Boolean(editing) },
      editing ? "subscription updated" : "subscription created",
    );
    return {
      async after() {
        const problem = unchecked
          ? channelProblem(await checkChannel(deps, ctx.client, ref, channelId))
          : null;
        if (!problem) return confirmSaved(ctx, meta, saved, editing ? "updated" : "subscribed");
        // Paused for the channel's reason: joining or unarchiving it resumes the subscription by itself.
        const paused = await deps.subscriptions.pause(ref, saved.subscription.id, problem.code);
        log.info(
          { subId: paused.id, reason: problem.code },
          "subscription saved paused: the app cannot post there yet",
        );
        await confirmPaused(ctx, meta, paused, problem.message);
      },
    };
  },
});
