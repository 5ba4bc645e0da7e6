import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, plain } from "../src/blockkit/text.ts";
import type { Message } from "../src/blockkit/types.ts";
import { RANGE_EXAMPLES } from "../src/insights/range-grammar.ts";

export interface HelpOptions {
  /** The command as installed (`/insights`, or a dev app's own name). */
  commandName: string;
  /** Whether the reader may connect the key and manage subscriptions; others see those marked admin-only. */
  canManage: boolean;
}

type Line = [example: string, meaning: string];

/** Every range form, from the grammar's own examples so help and parser cannot drift apart. */
const DIGESTS: Line[] = [
  ["", "the last 7 days, the same as `last7d`"],
  ...RANGE_EXAMPLES.map((e): Line => [e.text, e.meaning]),
  ['export last30d asset:"payments / api"', "the daily series as a CSV file in this conversation"],
  ["help", "this list"],
];

const PERSONAL: Line[] = [
  ["subscribe me daily 08:00", "a digest by DM, to you alone; pause or delete it from the app's Home tab"],
  ["alert me when violations > 500", "a DM when it starts to hold, edited as it changes, checked hourly"],
];

const FILTERS: Line[] = [
  ['last30d asset:"payments / api"', "one asset; names match whatever the case"],
  ['asset:"payments / api" asset:"web / app"', "several assets (repeat the filter)"],
  ["scanner:semgrep", "by scanner id or name; combines with assets"],
];

const MANAGE: Line[] = [
  ["connect", "add the platform API key (in a private form, never in a channel)"],
  ["disconnect", "remove the key"],
  ["status", "key health, endpoint, subscriptions and their last deliveries"],
  ["subscribe weekly mon 09:00", "post a digest in this channel every Monday at 09:00"],
  [
    'subscribe daily 08:30 Europe/Berlin yesterday asset:"payments / api"',
    "every day, in a given timezone, for a range and filters (defaults: weekly, mon, 09:00, your timezone, last7d)",
  ],
  ["subscribe weekdays 08:00 yesterday", "Monday to Friday, each morning the day before"],
  [
    "subscribe monthly 1st 09:00 lastmonth, monthly first mon 09:00, monthly last workday 17:00",
    "once a month: on a day (a short month runs on its last day), a weekday (first to fourth, or last) or the first or last working day",
  ],
  [
    "subscribe quarterly 09:00 lastquarter",
    "on the first day of each quarter (also quarterly first mon; quarterly last workday runs in the quarter's last month)",
  ],
  [
    "subscribe weekly mon 09:00 when violations up 10%",
    "post only when the condition holds (also: when findings > 500, when violations rose 3, when changed); other runs are recorded as skipped",
  ],
  [
    "subscribe daily 09:00 update",
    "one message a day, updated in place (`thread`: each run a reply in one thread)",
  ],
  [
    "subscribe weekly mon 09:00 chart:png",
    "how the trend and drivers show: native (Slack draws a chart and a table, the default), png (an image) or off",
  ],
  [
    "alert when violations > 500",
    "check hourly; one message when it starts to hold, edited as it changes and when it clears",
  ],
  [
    "alert when fixrate < 60%",
    "when the fix rate every digest shows drops below 60% (or: fixrate > 80%); a range with no violations and no fixes has none, and changes nothing",
  ],
  [
    "alert when violations unusual",
    "when yesterday is outside what is usual for its weekday (also: unusually high, unusually low, sensitivity low|high)",
  ],
  ["subscriptions", "list the subscriptions, with buttons to pause, resume, send or delete"],
  ["pause <id>", "stop a subscription for now; `resume <id>` starts it again"],
  ["send <id>", "deliver a subscription's digest now, to try it"],
  ["unsubscribe <id>", "delete a subscription"],
  [
    "settings chart:png",
    "the whole workspace's chart setting (native, png, off or default); `settings` shows it",
  ],
];

/** `last14d, last30d` → `/insights last14d`, `last30d`: the command once, every form a code span. */
function lines(command: string, list: Line[]): string {
  return list
    .map(([example, meaning]) => {
      const forms = example
        .split(", ")
        .map((f, i) => `\`${escapeMrkdwn(i === 0 ? `${command} ${f}`.trim() : f)}\``);
      return `• ${forms.join(", ")} — ${escapeMrkdwn(meaning)}`;
    })
    .join("\n");
}

/** Usage with an example of every form of the command grammar. */
export function helpMessage(opts: HelpOptions): Message {
  const command = opts.commandName.replace(/[`\s]/g, "").slice(0, 40) || "/insights";
  const manageTitle = opts.canManage
    ? "*Setup and schedules*"
    : "*Setup and schedules* (workspace admins only)";
  return {
    text: `How to use ${escapeMrkdwn(command)}: ${escapeMrkdwn(command)} last7d, ${escapeMrkdwn(command)} help`,
    blocks: [
      { type: "header", text: plain(`${command} — analytics digests in Slack`, LIMITS.headerText) },
      { type: "section", text: mrkdwn(`*Digests*\n${lines(command, DIGESTS)}`) },
      { type: "section", text: mrkdwn(`*Filters*\n${lines(command, FILTERS)}`) },
      { type: "section", text: mrkdwn(`*Just for you*\n${lines(command, PERSONAL)}`) },
      { type: "section", text: mrkdwn(`${manageTitle}\n${lines(command, MANAGE)}`) },
      {
        type: "context",
        elements: [
          mrkdwn(
            "Ranges use your Slack timezone. A digest is visible only to you until you press *Share to channel*; scheduled digests go only to channels the app is in.",
          ),
        ],
      },
    ],
  };
}
