import { exportCsv, exportedText } from "../src/slack/export.ts";
import type { CommandHandler } from "./context.ts";
import { commandView } from "./digest.ts";

/**
 * `/insights export [range] [asset:…] [scanner:…]`: the digest's daily series as a CSV file in this
 * conversation (or in the person's DM with the app when it cannot share here), one row per day under
 * a header row; the range, comparison and filters in the message that carries it and in its name. Same numbers as `/insights` with the same words.
 */
export const exportCommand: CommandHandler<"export"> = async (ctx) => {
  // A file of numbers: no chart, so no previous period to fetch.
  const view = await commandView(ctx, { chart: "off" });
  const where = await exportCsv(ctx, view, ctx.body.channel_id);
  await ctx.respond({ response_type: "ephemeral", text: exportedText(view, where) });
};
