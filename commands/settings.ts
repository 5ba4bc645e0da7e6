import { AppError } from "../src/errors.ts";
import { COMMAND } from "../src/ids.ts";
import type { CommandHandler } from "./context.ts";

/** What each chart setting does, in the words the reply uses. */
const MEANING: Record<string, string> = {
  native:
    "Slack draws the trend as a chart and the drivers as a table. Where a workspace or client refuses those blocks, scheduled digests post the image instead.",
  png: "scheduled digests upload the trend as an image (needs files:write and files:read); on-demand digests show a text sparkline.",
  off: "digests show their numbers and words only: a text sparkline, the drivers as text.",
};

/**
 * `/insights settings` shows the workspace's settings; `settings chart:<native|png|off>` sets how
 * every digest of the workspace shows its trend and drivers (a subscription's own `chart:` choice
 * wins), `chart:default` goes back to native. Admins only.
 */
export const settingsCommand: CommandHandler<"settings"> = async (ctx) => {
  const store = ctx.deps.settings;
  if (!store) throw new AppError("unavailable", "Settings are not available in this deployment.");
  const change = ctx.command.chart;
  if (change) await store.setChart(ctx.ref, change === "default" ? null : change);
  const chosen = (await store.get(ctx.ref)).chart;
  const chart = chosen && MEANING[chosen] ? chosen : "native";
  const lines = [
    `${change ? ":white_check_mark: Saved. " : ""}*Charts:* \`${chart}\`${chosen ? "" : " (the default)"}: ${MEANING[chart]}`,
    `Change it with \`${COMMAND} settings chart:native|png|off|default\`; one subscription can differ with \`chart:\` in \`${COMMAND} subscribe\` or in its form.`,
  ];
  await ctx.respond({ response_type: "ephemeral", text: lines.join("\n") });
};
