import type { ButtonAction } from "@slack/bolt";
import { decodeState } from "../../../../templates/state.ts";
import { mrkdwn } from "../../../blockkit/text.ts";
import { ACTION } from "../../../ids.ts";
import { digestViewForState } from "../../digest-redraw.ts";
import { exportCsv, exportedText } from "../../export.ts";
import { onAction } from "../../frame/index.ts";

/**
 * *Export CSV* on a digest: the series of the digest the person is looking at (its range and
 * filters ride in the button), in their timezone, uploaded to the conversation the digest is in.
 */
export const exportButton = onAction({
  id: ACTION.exportCsv,
  access: "reader",
  async run(ctx) {
    const state = decodeState((ctx.action as ButtonAction).value);
    const view = await digestViewForState(ctx, state, { shareable: false, chart: "off" });
    const where = await exportCsv(ctx, view, ctx.body.channel?.id);
    const text = exportedText(view, where);
    await ctx.reply.message({ text, blocks: [{ type: "section", text: mrkdwn(text) }] });
  },
});
