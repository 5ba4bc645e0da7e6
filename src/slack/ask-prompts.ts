import { suggestedPrompts } from "../ask/prompts.ts";
import { promptsFor } from "../digests/ask-service.ts";
import type { EventContext } from "./frame/index.ts";
import { canRead } from "./permissions.ts";

/** The title above the suggested prompts. */
export const PROMPTS_TITLE = "Ask about your security numbers";

/**
 * Suggested prompts when someone opens the app's Messages tab (under Slack's agent messaging
 * experience they sit at the top of the tab, for the DM, so no thread is named). They use the
 * account's own group and scanner names from the lists a digest left behind (never a query on this
 * path); people who may not read digests, or a workspace with no lists yet, get generic ones.
 */
export async function offerPrompts(ctx: EventContext, userId: string, channelId: string): Promise<void> {
  const { deps, ref } = ctx;
  const now = deps.clock();
  try {
    const user = await deps.users.get(ref, ctx.client, userId);
    const reader = canRead(user, deps.policy, await deps.installerOf(ref));
    const prompts = reader
      ? await promptsFor(deps.digests, { ref, tz: user.tz, now })
      : suggestedPrompts({ now, tz: user.tz, assets: [], scanners: [] });
    await ctx.client.assistant.threads.setSuggestedPrompts({
      channel_id: channelId,
      title: PROMPTS_TITLE,
      prompts,
    });
  } catch (err) {
    // Only the suggestions are lost; the tab works without them.
    ctx.log.info(
      {
        code:
          (err as { code?: string; data?: { error?: string } }).data?.error ??
          (err as { code?: string }).code,
      },
      "suggested prompts not set",
    );
  }
}
