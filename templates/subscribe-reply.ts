import { escapeMrkdwn, mrkdwn, userText } from "../src/blockkit/text.ts";
import type { Block, Message } from "../src/blockkit/types.ts";
import { COMMAND } from "../src/ids.ts";
import type { Schedule } from "../src/subscriptions/types.ts";
import { runTimeLines, scheduleWords } from "./subscribe-times.ts";
import { isDm, runOptionsText } from "./subscription-words.ts";

/** A saved subscription as the confirmation shows it. */
export interface SubscribedView {
  id: string;
  channelId: string;
  ownerId: string;
  schedule: Schedule;
  time: string;
  tz: string;
  range: string;
  filterLabels: string[];
  condition?: string;
  mode?: "alert";
  style?: "update" | "thread";
  /** The next fire times (empty while paused). */
  nextRuns: Date[];
  verb: "subscribed" | "updated" | "resumed";
  /** One more line, e.g. that a catch-up digest was queued. */
  note?: string;
}

const TITLE = { subscribed: "Subscribed", updated: "Subscription updated", resumed: "Resumed" } as const;
const channel = (id: string) => (/^[CG][A-Z0-9]{2,30}$/.test(id) ? `<#${id}>` : userText(id, 40));
const user = (id: string) => (/^[UW][A-Z0-9]{2,30}$/.test(id) ? `<@${id}>` : userText(id, 40));

function filterText(labels: string[]): string {
  if (labels.length === 0) return "no filters";
  const shown = labels.slice(0, 10).map((l) => userText(l, 80));
  return `filters: ${shown.join(", ")}${labels.length > 10 ? ` +${labels.length - 10} more` : ""}`;
}

/**
 * The reply after a subscription is created, edited or resumed: the schedule in words, the next
 * five runs in the subscription's own zone (DST visible in the zone names), its id and owner, and
 * the commands that manage it.
 */
export function subscribedMessage(v: SubscribedView): Message {
  const schedule = escapeMrkdwn(scheduleWords(v.schedule, v.time));
  const range = userText(v.range.replace(/`/g, ""), 40);
  const who = isDm(v.channelId) ? "You get" : `${channel(v.channelId)} gets`;
  const what = v.mode === "alert" ? "an alert checked" : isDm(v.channelId) ? "a digest by DM" : "a digest";
  const blocks: Block[] = [
    {
      type: "section",
      text: mrkdwn(
        `:white_check_mark: *${TITLE[v.verb]}:* ${who} ${what} *${schedule}* (${userText(v.tz, 60)}), range \`${range}\`, ${filterText(v.filterLabels)}.`,
      ),
    },
  ];
  const options = runOptionsText({
    channelId: v.channelId,
    ownerId: v.ownerId,
    condition: v.condition,
    style: v.style,
    ...(v.mode === "alert" ? { alert: "unchecked" as const } : {}),
  });
  if (options) blocks.push({ type: "section", text: mrkdwn(options) });
  if (v.note) blocks.push({ type: "section", text: mrkdwn(v.note) });
  if (v.nextRuns.length > 0)
    blocks.push({
      type: "section",
      text: mrkdwn(
        `*Next ${v.nextRuns.length} runs* (${userText(v.tz, 60)})\n${runTimeLines(v.nextRuns, v.tz)}`,
      ),
    });
  const id = userText(v.id, 40);
  blocks.push({
    type: "context",
    elements: [
      mrkdwn(
        `Id \`${id}\` · set up by ${user(v.ownerId)} · \`${COMMAND} send ${id}\` sends one now · \`${COMMAND} pause ${id}\` · \`${COMMAND} unsubscribe ${id}\``,
      ),
    ],
  });
  return {
    blocks,
    text: `${TITLE[v.verb]}: ${schedule} (${v.tz}) ${isDm(v.channelId) ? "by DM" : `in ${channel(v.channelId)}`}, id ${v.id}`,
  };
}
