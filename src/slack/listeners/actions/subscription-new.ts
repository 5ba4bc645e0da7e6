import { ACTION } from "../../../ids.ts";
import { OPENS_MODAL, onAction } from "../../frame/index.ts";
import { openSubscribeModal } from "../../subscriptions/modal-open.ts";

/** "New subscription" on the Home tab: the subscribe modal with the creator's defaults. */
export const subscriptionNew = onAction({
  id: ACTION.subscriptionNew,
  access: "manager",
  inline: OPENS_MODAL,
  run: (ctx) =>
    openSubscribeModal({
      ctx,
      triggerId: ctx.body.trigger_id,
      channelId: ctx.body.channel?.id,
      fromHome: ctx.body.view?.type === "home",
    }),
});

/** "Send me a digest" on the Home tab: the modal in its personal form, for anyone who may read digests. */
export const subscriptionNewPersonal = onAction({
  id: ACTION.subscriptionNewPersonal,
  access: "reader",
  inline: OPENS_MODAL,
  run: (ctx) =>
    openSubscribeModal({
      ctx,
      triggerId: ctx.body.trigger_id,
      fromHome: ctx.body.view?.type === "home",
      personal: true,
    }),
});
