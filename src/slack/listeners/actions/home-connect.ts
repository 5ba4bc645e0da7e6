import { connectModal } from "../../../../templates/connect-modal.ts";
import { ACTION } from "../../../ids.ts";
import { OPENS_MODAL, onAction } from "../../frame/index.ts";

/** Connect (or Replace key) on the Home tab: the same modal as `/insights connect`. */
export const homeConnect = onAction({
  id: ACTION.connect,
  access: "manager",
  inline: OPENS_MODAL,
  async run(ctx) {
    const endpoint = await ctx.deps.analytics.endpoint().catch(() => undefined);
    await ctx.client.views.open({
      trigger_id: ctx.body.trigger_id,
      view: connectModal({ endpoint, privateMetadata: JSON.stringify({ channel: ctx.body.channel?.id }) }),
    });
  },
});
