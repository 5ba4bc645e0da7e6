import { helpMessage } from "../../../../templates/help.ts";
import { ACTION, COMMAND } from "../../../ids.ts";
import { onAction } from "../../frame/index.ts";

/** Link buttons still send an action; answering it keeps Slack from showing the person a warning. */
export const openPlatform = onAction({
  id: ACTION.openPlatform,
  access: "anyone",
  inline: "nothing to do: the link opens in the browser",
  run: async () => {},
});

/** A Help button: the same help as `/insights help`, privately. */
export const helpOpen = onAction({
  id: ACTION.help,
  access: "anyone",
  run: async (ctx) =>
    ctx.reply.message(helpMessage({ commandName: COMMAND, canManage: await ctx.isManager() })),
});
