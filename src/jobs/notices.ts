import { periodTime } from "../subscriptions/period.ts";
import { describeReason } from "../subscriptions/reasons.ts";
import { scheduleText } from "../subscriptions/schedule.ts";
import type { Subscription } from "../subscriptions/types.ts";

/**
 * The two messages a delivery sends instead of a digest. Plain mrkdwn text, no numbers: a failed
 * fetch is never shown as zeros.
 */

export interface TextMessage {
  text: string;
}

/** `/insights resume <id>` works only on ids we made; anything else is not echoed into a command. */
const resumeHint = (sub: Subscription) => `\`/insights resume ${sub.id}\``;

/** The DM to a subscription's owner when it paused itself: what happened and how to fix it. */
export function ownerPausedNotice(sub: Subscription, reason: string): TextMessage {
  const r = describeReason(reason);
  // Which groups it is filtered to, so the owner can tell which one is gone.
  const groups =
    reason === "group_gone" && sub.assetGroups?.length
      ? ` (it is filtered to ${sub.assetGroups.map((g) => `${g}/*`).join(", ")})`
      : "";
  return {
    text: [
      `:double_vertical_bar: Your scheduled insights digest for <#${sub.channelId}> (${scheduleText(sub.schedule, sub.time, sub.tz)}) is paused because ${r.what}${groups}.`,
      r.fix,
      `Then resume it with ${resumeHint(sub)} or from the app's Home tab; one catch-up digest follows.`,
    ].join("\n"),
  };
}

/** Posted in the channel when a run could not produce a digest after all its retries. */
export function failureNotice(sub: Subscription, period: string, reason: string): TextMessage {
  const r = describeReason(reason);
  const at = periodTime(period);
  const when = at
    ? `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} {time}|${at.toISOString()}>`
    : "now";
  return {
    text: `:warning: The scheduled insights digest (${scheduleText(sub.schedule, sub.time, sub.tz)}) due ${when} could not be delivered because ${r.what}. No numbers are shown rather than wrong ones. ${r.fix}`,
  };
}
