import type { DigestRequest } from "../src/digests/digest-service.ts";
import type { DigestView } from "../src/insights/types.ts";
import { sendWithFallback } from "../src/slack/refusal.ts";
import { digestMessage } from "../templates/digest-message.ts";
import type { CommandContext, CommandHandler } from "./context.ts";

/** The digest the command's words ask for, in the person's zone (the digest itself, and `export`). */
export async function commandView(
  ctx: CommandContext<"digest" | "export">,
  o: Pick<DigestRequest, "shareable" | "chart"> = {},
): Promise<DigestView> {
  const user = await ctx.user();
  const { view } = await ctx.deps.digests.build({
    ref: ctx.ref,
    range: ctx.command.range,
    tz: user.tz,
    now: ctx.deps.clock(),
    assetNames: ctx.command.assets,
    scannerNames: ctx.command.scanners,
    ...o,
  });
  return view;
}

/** `/insights [range] [asset:…] [scanner:…]`: an ephemeral digest with a Share button. */
export const digestCommand: CommandHandler<"digest"> = async (ctx) => {
  const view = await commandView(ctx, { shareable: true });
  await sendWithFallback(
    digestMessage(view),
    () => digestMessage({ ...view, chartStyle: "off" }),
    (message) => ctx.respond({ response_type: "ephemeral", ...message }),
  );
};
