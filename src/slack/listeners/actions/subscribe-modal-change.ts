import type { ConversationsSelectAction } from "@slack/bolt";
import { SUBSCRIBE_FIELD, SUBSCRIBE_SCHEDULE_FIELDS } from "../../../ids.ts";
import { onAction } from "../../frame/index.ts";
import { channelProblem, checkChannel } from "../../subscriptions/access.ts";
import { buildSubscribeView, listsWithin, NO_LISTS } from "../../subscriptions/modal-open.ts";
import { decodeMeta, formFromValues } from "../../subscriptions/modal-state.ts";

/** How long a redraw waits for the filter lists (usually cached) before drawing without them. */
const LISTS_BUDGET_MS = 2_000;

/**
 * A schedule input of the subscribe modal changed (frequency, days, cron, time, zone): redraw the
 * modal with the next runs of what is filled in now, and the inputs that frequency needs. The
 * view's hash makes Slack drop this redraw if a newer one got there first.
 */
export const subscribeModalChanges = SUBSCRIBE_SCHEDULE_FIELDS.map((field) =>
  onAction({
    id: field,
    access: "reader",
    inline: "redraws the open modal from its state and hash, which a hand-off does not carry",
    async run(ctx) {
      const view = ctx.body.view;
      if (!view) return;
      const meta = decodeMeta(view.private_metadata);
      const user = await ctx.user();
      const values = (view.state?.values ?? {}) as Parameters<typeof formFromValues>[0];
      const form = formFromValues(values, meta, user.tz);
      const lists = (await listsWithin(ctx.deps, ctx.ref, user.tz, LISTS_BUDGET_MS)) ?? {
        assets: null,
        scanners: null,
      };
      await ctx.client.views
        .update({ view_id: view.id, hash: view.hash, view: buildSubscribeView(ctx.deps, form, meta, lists) })
        // A lost race (hash_conflict) or an expired view: the person's next change redraws it.
        .catch((err: unknown) => ctx.log.info({ err }, "subscribe modal not redrawn"));
    },
  }),
);

/**
 * A channel picked in the subscribe modal: checked now (the app a member, the channel live) and the
 * answer remembered, so the submission can refuse it inline without asking Slack; a channel the app
 * cannot post in is also said at once, in the modal.
 */
export const subscribeChannelChange = onAction({
  id: SUBSCRIBE_FIELD.channel,
  access: "reader",
  inline: "checks the channel while the modal is open and redraws it from its state and hash",
  async run(ctx) {
    const view = ctx.body.view;
    const channelId = (ctx.action as ConversationsSelectAction).selected_conversation;
    if (!view || !channelId) return;
    const problem = channelProblem(await checkChannel(ctx.deps, ctx.client, ctx.ref, channelId));
    if (!problem) return;
    const meta = decodeMeta(view.private_metadata);
    const user = await ctx.user();
    const form = formFromValues(
      (view.state?.values ?? {}) as Parameters<typeof formFromValues>[0],
      meta,
      user.tz,
    );
    const lists = (await listsWithin(ctx.deps, ctx.ref, user.tz, LISTS_BUDGET_MS)) ?? NO_LISTS;
    await ctx.client.views
      .update({
        view_id: view.id,
        hash: view.hash,
        view: buildSubscribeView(ctx.deps, form, meta, lists, `:warning: ${problem.message}`),
      })
      .catch((err: unknown) => ctx.log.info({ err }, "subscribe modal not redrawn"));
  },
});
