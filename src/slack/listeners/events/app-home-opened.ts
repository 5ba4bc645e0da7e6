import { offerPrompts } from "../../ask-prompts.ts";
import { onEvent } from "../../frame/index.ts";
import { publishHome } from "../../home.ts";

/**
 * The Home tab is drawn when its person opens it, so it always shows the current key status and
 * subscriptions (other people's changes included). The Messages tab gets suggested questions.
 * Optional work: skipped while Slack rate limits the workspace's events.
 */
export const appHomeOpened = onEvent({
  id: "app_home_opened",
  optional: true,
  async run(ctx) {
    const { event } = ctx;
    if (typeof event.user !== "string") return;
    if (event.tab === "messages" && typeof event.channel === "string")
      return offerPrompts(ctx, event.user, event.channel);
    if (event.tab !== "home") return;
    await publishHome(ctx.deps, ctx.client, ctx.ref, event.user);
  },
});
