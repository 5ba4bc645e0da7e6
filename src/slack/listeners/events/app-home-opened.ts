import { onEvent } from "../../frame/index.ts";
import { publishHome } from "../../home.ts";

/**
 * The Home tab is drawn when its person opens it, so it always shows the current key status and
 * subscriptions (other people's changes included). The Messages tab needs nothing. Optional work:
 * skipped while Slack rate limits the workspace's events.
 */
export const appHomeOpened = onEvent({
  id: "app_home_opened",
  optional: true,
  async run(ctx) {
    const { event } = ctx;
    if (event.tab !== "home" || typeof event.user !== "string") return;
    await publishHome(ctx.deps, ctx.client, ctx.ref, event.user);
  },
});
