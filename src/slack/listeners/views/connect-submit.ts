import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from "@slack/bolt";
import { AppError, isAppError } from "../../../errors.ts";
import { ACTION, BLOCK } from "../../../ids.ts";
import { canManage, managersOnly } from "../../permissions.ts";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";

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
 * wrong key comes back as an inline error on the input. Slack waits 3 s for this ack, so the check
 * is bounded by `verifyTimeoutMs`.
 */
export function connectSubmit(deps: AppServices) {
  return async ({
    ack,
    body,
    view,
    client,
    context,
  }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs) => {
    const inlineError = (message: string) =>
      ack({ response_action: "errors", errors: { [BLOCK.apiKey]: message } });
    const apiKey = view.state.values[BLOCK.apiKey]?.[ACTION.apiKeyInput]?.value?.trim() ?? "";
    if (apiKey.length === 0)
      return inlineError("Paste the API key from the platform's application keys page.");
    if (apiKey.length > MAX_KEY || /\s/.test(apiKey))
      return inlineError("That does not look like an API key (no spaces, at most 4,096 characters).");
    const ref = workspaceOf(context);
    const log = deps.logger.child({ teamId: ref.teamId, userId: body.user.id, view: "connect" });
    try {
      const user = await deps.users.get(ref, client, body.user.id);
      if (!canManage(user, deps.policy, await deps.installerOf(ref))) {
        return inlineError(managersOnly("connect a key"));
      }
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
      savedBy: body.user.id,
      savedAt: deps.clock().toISOString(),
      endpoint,
    });
    await deps.insightsCache.invalidate(ref);
    await ack({ response_action: "clear" });
    log.info("api key connected");
    let channel: string | undefined;
    try {
      channel = (JSON.parse(view.private_metadata || "{}") as { channel?: string }).channel;
    } catch {
      channel = undefined;
    }
    const text = ":white_check_mark: Connected. Try `/insights last7d`.";
    await (channel
      ? client.chat.postEphemeral({ channel, user: body.user.id, text })
      : client.chat.postMessage({ channel: body.user.id, text })
    ).catch((err: unknown) => log.warn({ err }, "could not confirm the connection"));
  };
}
