import { buildAccount, DEMO_API_KEY } from "../../sandbox/analytics/accounts.ts";
import type { ChannelMessage } from "../../sandbox/slack/index.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { readQuestion } from "../../src/ask/read.ts";
import { understoodText } from "../../src/ask/understood.ts";

/** Questions in plain words through the whole app: what a person types, what comes back in its thread. */

export const dmOf = (userId: string) => `D${userId.slice(1)}`;

/** The app's replies in a thread of a conversation. */
export const repliesIn = (stack: Stack, channelId: string, threadTs: string): ChannelMessage[] =>
  stack.slack.messages(channelId).filter((m) => m.threadTs === threadTs && m.botId !== undefined);

/** Someone writes `text` in the app's DM; resolves with the delivery and the app's first reply in its thread. */
export async function askInDm(stack: Stack, text: string, userId: string = DEMO.member) {
  const posted = await stack.slack.sendDm({ teamId: DEMO.teamId, userId, text });
  if (!posted.delivered) throw new Error(`Slack did not deliver the DM: ${posted.refused}`);
  const reply = await stack.slack.waitFor(() => repliesIn(stack, posted.channelId, posted.ts)[0], {
    timeoutMs: 15_000,
    what: `the answer to ${JSON.stringify(text)}`,
  });
  return { posted, reply, text: JSON.stringify(reply.blocks ?? []) };
}

/** The understood line the app must show for `text`, read at `now` in `tz` against the demo account. */
export function expectedUnderstanding(text: string, tz: string, now = new Date()): string {
  const account = buildAccount({ apiKey: DEMO_API_KEY });
  const reading = readQuestion(text, { now, tz, assets: account.assets, scanners: account.scanners });
  return understoodText(reading, tz);
}

/** A block's mrkdwn text, as Slack shows it with entities undone. */
export const shownText = (m: ChannelMessage) =>
  JSON.stringify(m.blocks ?? [])
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
