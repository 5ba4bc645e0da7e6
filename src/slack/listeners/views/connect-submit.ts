import { AppError, isAppError } from "../../../errors.ts";
import { ACTION, BLOCK, CALLBACK } from "../../../ids.ts";
import { onView, type ViewResult } from "../../frame/index.ts";

const MAX_KEY = 4096;

function verifyMessage(err: unknown): string {
  if (isAppError(err)) {
    switch (err.code) {
      case "unauthorized":
        return "The analytics service rejected this key. Check that you copied the whole key, and that it is an API key.";
      case "rate_limited":
        return "The analytics service is rate limiting us. Wait a minute and submit again.";
      case "timeout":
      case "unavailable":
        return "The analytics service did not answer in time. Nothing was saved; submit again in a moment.";
      default:
        return `The key could not be checked (${err.code}). Nothing was saved.`;
    }
  }
  return "The key could not be checked. Nothing was saved.";
}

/**
 * Connect modal submission: the key is checked against the service before it is stored, and a
 * wrong key comes back as an inline error on the input. Slack waits 3 s for this answer, so the
 * check is bounded by `verifyTimeoutMs`. Only managers get here (the frame refuses anyone else on
 * the key's input).
 */
export const connectSubmit = onView({
  id: CALLBACK.connectModal,
  access: "manager",
  errorBlock: BLOCK.apiKey,
  async run(ctx) {
    const { deps, view, ref, log } = ctx;
    const inlineError = (message: string): ViewResult => ({ errors: { [BLOCK.apiKey]: message } });
    const apiKey = view.state.values[BLOCK.apiKey]?.[ACTION.apiKeyInput]?.value?.trim() ?? "";
    if (apiKey.length === 0)
      return inlineError("Paste the API key from the platform's application keys page.");
    if (apiKey.length > MAX_KEY || /\s/.test(apiKey))
      return inlineError("That does not look like an API key (no spaces, at most 4,096 characters).");
    try {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new AppError("timeout", "verification timed out")),
          deps.verifyTimeoutMs,
        ).unref(),
      );
      await Promise.race([deps.analytics.verifyKey(apiKey), timeout]);
    } catch (err) {
      log.info({ code: isAppError(err) ? err.code : "error" }, "api key rejected");
      return inlineError(verifyMessage(err));
    }
    const endpoint = await deps.analytics.endpoint().catch(() => undefined);
    await deps.apiKeys.save(ref, apiKey, {
      savedBy: ctx.userId,
      savedAt: deps.clock().toISOString(),
      endpoint,
    });
    await deps.insightsCache.invalidate(ref);
    log.info("api key connected");
    return {
      answer: { response_action: "clear" },
      after: async () => {
        const text = ":white_check_mark: Connected. Try `/insights last7d`.";
        const channel = channelOf(view.private_metadata);
        await (channel
          ? ctx.client.chat.postEphemeral({ channel, user: ctx.userId, text })
          : ctx.client.chat.postMessage({ channel: ctx.userId, text }));
      },
    };
  },
});

function channelOf(privateMetadata: string | undefined): string | undefined {
  try {
    const channel = (JSON.parse(privateMetadata || "{}") as { channel?: unknown }).channel;
    return typeof channel === "string" ? channel : undefined;
  } catch {
    return undefined;
  }
}
