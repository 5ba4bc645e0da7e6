import { digestMessage } from "../templates/digest-message.ts";
import type { CommandHandler } from "./context.ts";

/** `/insights [range] [asset:…] [scanner:…]`: an ephemeral digest with a Share button. */
export const digestCommand: CommandHandler<"digest"> = async (ctx) => {
  const user = await ctx.user();
  const { view } = await ctx.deps.digests.build({
    ref: ctx.ref,
    range: ctx.command.range,
    tz: user.tz,
    now: ctx.deps.clock(),
    assetNames: ctx.command.assets,
    scannerNames: ctx.command.scanners,
    shareable: true,
  });
  await ctx.respond({ response_type: "ephemeral", ...digestMessage(view) });
};
