import type { WebClient } from "@slack/web-api";
import { subscribedMessage } from "../../../templates/subscribe-reply.ts";
import { runTime, scheduleWords } from "../../../templates/subscribe-times.ts";
import { whereText } from "../../../templates/subscription-words.ts";
import { escapeMrkdwn } from "../../blockkit/text.ts";
import type { Message } from "../../blockkit/types.ts";
import { AppError } from "../../errors.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import { periodTime } from "../../subscriptions/period.ts";
import type { Subscription } from "../../subscriptions/types.ts";
import type { AppServices } from "../services.ts";
import type { SlackUser } from "../users.ts";
import { requireChange, requirePostableChannel } from "./access.ts";
import { isPersonal } from "./personal.ts";

/** What a manager can do to one subscription from a command or a button. */
export type SubscriptionOp = "pause" | "resume" | "send" | "delete";

/** The outcome, as a reply: `text` is mrkdwn (user data escaped), `message` a richer reply when there is one. */
export interface OpOutcome {
  sub: Subscription;
  text: string;
  message?: Message;
}

type OpDeps = Pick<AppServices, "subscriptions" | "policy" | "installerOf" | "logger" | "clock">;

const what = (sub: Subscription) =>
  `\`${escapeMrkdwn(sub.id)}\` (${escapeMrkdwn(scheduleWords(sub.schedule, sub.time))} ${whereText(sub.channelId, sub.ownerId)})`;

/** A personal digest's DM needs no membership check; a channel must still take posts. */
async function requireDeliverable(client: WebClient, sub: Subscription): Promise<void> {
  if (!isPersonal(sub)) await requirePostableChannel(client, sub.channelId);
}

/** The subscription, or `subscription_not_found` naming the id (ids are checked before any key is built). */
export async function loadSubscription(deps: OpDeps, ref: WorkspaceRef, id: string): Promise<Subscription> {
  const sub = await deps.subscriptions.get(ref, id);
  if (!sub)
    throw new AppError(
      "subscription_not_found",
      `There is no subscription "${id.slice(0, 40)}" in this workspace. /insights subscriptions lists them.`,
    );
  return sub;
}

/**
 * Pause, resume, test-send or delete one subscription, after checking the caller may change it.
 * Resume and send look at the channel first: a digest into an archived channel would only fail.
 */
export async function runSubscriptionOp(
  deps: OpDeps,
  client: WebClient,
  ref: WorkspaceRef,
  user: SlackUser,
  id: string,
  op: SubscriptionOp,
): Promise<OpOutcome> {
  const sub = await loadSubscription(deps, ref, id);
  requireChange(user, sub, deps.policy, await deps.installerOf(ref));
  const log = deps.logger.child({ subId: sub.id, op, userId: user.id });
  switch (op) {
    case "pause": {
      const paused = await deps.subscriptions.pause(ref, sub.id, "paused_by_user");
      log.info("subscription paused");
      return {
        sub: paused,
        text: `:double_vertical_bar: Paused ${what(sub)}. \`/insights resume ${escapeMrkdwn(sub.id)}\` starts it again.`,
      };
    }
    case "resume": {
      await requireDeliverable(client, sub);
      const { subscription, nextRuns, catchUpPeriod } = await deps.subscriptions.resume(ref, sub.id);
      const missed = catchUpPeriod ? periodTime(catchUpPeriod) : null;
      const note = catchUpPeriod
        ? `:inbox_tray: One catch-up digest for the run missed${missed ? ` on ${runTime(missed, sub.tz)}` : ""} is on its way.`
        : "No run was missed while it was paused, so no catch-up digest is sent.";
      log.info({ catchUpPeriod }, "subscription resumed");
      const message = subscribedMessage({ ...subscription, nextRuns, verb: "resumed", note });
      return { sub: subscription, text: `:arrow_forward: Resumed ${what(sub)}. ${note}`, message };
    }
    case "send": {
      await requireDeliverable(client, sub);
      const { period } = await deps.subscriptions.sendNow(ref, sub.id);
      log.info({ period }, "test send queued");
      return { sub, text: `:outbox_tray: A digest from ${what(sub)} is on its way, now.` };
    }
    case "delete": {
      await deps.subscriptions.remove(ref, sub.id);
      log.info("subscription deleted");
      return { sub, text: `:wastebasket: Deleted ${what(sub)}. No more digests from it.` };
    }
  }
}
