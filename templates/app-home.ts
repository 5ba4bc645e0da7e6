import { LIMITS } from "../src/blockkit/limits.ts";
import { mrkdwn, plain, userText } from "../src/blockkit/text.ts";
import type { Block, ButtonElement } from "../src/blockkit/types.ts";
import { ACTION, BLOCK, COMMAND } from "../src/ids.ts";
import { shown } from "./error-message.ts";
import { formatCount, slackDate } from "./format.ts";
import { chartWords, lastRunText, runOptionsText, whereText } from "./subscription-words.ts";
import type { SubscriptionView } from "./subscriptions.ts";

/** One subscription on the Home tab: the list's row plus what the viewer may do with it. */
export interface HomeSubscription extends SubscriptionView {
  /** The viewer owns it or manages the workspace: its buttons are shown. */
  canChange: boolean;
  /** How to lift the pause, in words (the row's `pausedReason` says why). */
  pausedFix?: string;
}

/** What the Home tab shows one user. */
export interface HomeModel {
  key: { connected: true; savedBy: string; savedAt: string } | { connected: false; unreadable?: boolean };
  /** The viewer may connect the key and create subscriptions. */
  canManage: boolean;
  /** The viewer may read digests, and so set up personal ones (DIGEST_ACCESS). */
  canRead?: boolean;
  /** How many personal digests the viewer has. */
  personal?: number;
  subscriptions: HomeSubscription[];
  /** The outcome of the viewer's last change from the Home tab: our own mrkdwn, user data already escaped. */
  notice?: string;
  /** Which ways into Slack this deployment offers (shown so admins know what is on). */
  reach?: HomeReach;
}

export interface HomeReach {
  socketMode: boolean;
  /** Host whose links unfurl as digests; undefined when no platform URL is configured. */
  unfurlHost?: string;
}

/** One line: how Slack reaches the app, the workflow step, and which links unfurl. */
function reachLine(r: HomeReach): Block {
  const parts = [
    r.socketMode ? "Connection: Socket Mode" : "Connection: HTTP request URL",
    "Workflow step *Send insights digest*: on",
    r.unfurlHost
      ? `Link previews for ${userText(r.unfurlHost, 80)}: on`
      : "Link previews: off (no platform URL set)",
  ];
  return { type: "context", elements: [mrkdwn(parts.join(" · "), LIMITS.contextText)] };
}

export interface HomeView {
  type: "home";
  blocks: Block[];
}

/** Fixed blocks around the rows (header, status, help, reach, notice, personal, divider, header, count, "more"). */
const FIXED = 10;
/** Section, actions and divider per row: 30 rows keep the tab within 100 blocks. */
export const HOME_MAX_ROWS = Math.floor((LIMITS.viewBlocks - FIXED) / 3);

const user = (id: string) => (/^[UW][A-Z0-9]{2,30}$/.test(id) ? `<@${id}>` : userText(id, 40));
const when = (iso: string) => slackDate(iso) ?? userText(iso, 40);

function button(actionId: string, text: string, value: string, style?: "primary" | "danger"): ButtonElement {
  const b: ButtonElement = {
    type: "button",
    action_id: actionId,
    text: plain(text, LIMITS.buttonText),
    value,
  };
  if (style) b.style = style;
  return b;
}

function keyStatus(m: HomeModel): Block {
  const text = m.key.connected
    ? `:white_check_mark: *Platform API key:* connected by ${user(m.key.savedBy)}${slackDate(m.key.savedAt) ? ` on ${when(m.key.savedAt)}` : ""}.`
    : m.key.unreadable
      ? ":warning: *Platform API key:* saved but unreadable with this server's keys. An admin can connect it again."
      : `:large_orange_circle: *Platform API key:* not connected. ${m.canManage ? "Connect one to start digests." : "A workspace admin can connect it."}`;
  const block: Block = { type: "section", block_id: BLOCK.homeStatus, text: mrkdwn(text) };
  if (m.canManage)
    block.accessory = button(
      ACTION.connect,
      m.key.connected ? "Replace key" : "Connect",
      "home",
      m.key.connected ? undefined : "primary",
    );
  return block;
}

/** Personal digests: what they are, how many the viewer has, and the button that sets one up. */
function personalBlock(count: number): Block {
  const have =
    count === 0
      ? "You have none yet."
      : `You have ${formatCount(count)}; they are listed below with buttons to pause or delete them.`;
  return {
    type: "section",
    block_id: BLOCK.homePersonal,
    text: mrkdwn(
      `:bust_in_silhouette: *Personal digests* come to you alone, by direct message, on your schedule, with your filters and conditions (or \`${COMMAND} subscribe me daily 08:00\`). ${have}`,
    ),
    accessory: button(ACTION.subscriptionNewPersonal, "Send me a digest", "home"),
  };
}

function rowText(s: HomeSubscription): string {
  const filters =
    s.filterNames.length === 0
      ? "no filters"
      : `filters: ${s.filterNames
          .slice(0, 5)
          .map((n) => userText(n, 60))
          .join(", ")}${s.filterNames.length > 5 ? ` +${formatCount(s.filterNames.length - 5)} more` : ""}`;
  const lines = [
    `*${userText(s.schedule, 100)}* · ${userText(s.tz, 60)} · ${whereText(s.channelId, s.ownerId)}`,
    `Set up by ${user(s.ownerId)} · range \`${userText(s.range.replace(/`/g, ""), 40)}\`${s.drivers === false ? " · no drivers" : ""}${chartWords(s.chart)} · ${filters}`,
  ];
  const options = runOptionsText(s);
  if (options) lines.push(options);
  if (s.paused) {
    lines.push(`:double_vertical_bar: *Paused* because ${shown(s.pausedReason ?? "it was paused", 300)}.`);
    if (s.pausedFix) lines.push(`_To fix:_ ${shown(s.pausedFix, 300)}`);
  } else if (s.nextRunAt) lines.push(`:calendar: Next run ${when(s.nextRunAt)}`);
  lines.push(lastRunText(s.lastDelivery));
  lines.push(`Id \`${userText(s.id, 40)}\``);
  return lines.join("\n");
}

function rowButtons(s: HomeSubscription): ButtonElement[] {
  const del = button(ACTION.subscriptionDelete, "Delete", s.id, "danger");
  del.confirm = {
    title: plain("Delete this subscription?", LIMITS.confirmTitle),
    text: mrkdwn(
      `No more scheduled digests from it ${whereText(s.channelId, s.ownerId)}.`,
      LIMITS.confirmText,
    ),
    confirm: plain("Delete", LIMITS.confirmButton),
    deny: plain("Keep it", LIMITS.confirmButton),
  };
  return [
    s.paused
      ? button(ACTION.subscriptionResume, "Resume", s.id, "primary")
      : button(ACTION.subscriptionPause, "Pause", s.id),
    button(ACTION.subscriptionSend, "Send now", s.id),
    button(ACTION.subscriptionEdit, "Edit", s.id),
    del,
  ];
}

/**
 * The App Home tab: key status (with Connect for admins), then every subscription with its owner,
 * schedule, zone, filters, next run, last delivery and, when paused, why and how to fix it. Row
 * buttons only for those who may use them; the handlers check again. Past {@link HOME_MAX_ROWS}
 * rows an "and N more" line points at the paged command, keeping the tab within 100 blocks.
 */
export function appHome(m: HomeModel): HomeView {
  const blocks: Block[] = [
    { type: "header", text: plain("Insights", LIMITS.headerText) },
    keyStatus(m),
    {
      type: "context",
      elements: [mrkdwn(`\`${COMMAND} last7d\` for a digest · \`${COMMAND} help\` for every command`)],
    },
  ];
  if (m.reach) blocks.push(reachLine(m.reach));
  if (m.notice?.trim()) blocks.push({ type: "section", text: mrkdwn(m.notice, 1000) });
  if (m.canRead) blocks.push(personalBlock(m.personal ?? 0));
  blocks.push({ type: "divider" }, { type: "header", text: plain("Scheduled digests", LIMITS.headerText) });
  const total = m.subscriptions.length;
  const count: Block = {
    type: "section",
    block_id: BLOCK.homeNew,
    text: mrkdwn(
      total === 0
        ? `No subscriptions yet. \`${COMMAND} subscribe weekly mon 09:00\` in a channel posts a digest there every Monday.`
        : `${formatCount(total)} subscription${total === 1 ? "" : "s"}, each in its own timezone.`,
    ),
  };
  if (m.canManage) count.accessory = button(ACTION.subscriptionNew, "New subscription", "home", "primary");
  blocks.push(count);
  const rows = m.subscriptions.slice(0, HOME_MAX_ROWS);
  rows.forEach((s, i) => {
    blocks.push({ type: "section", text: mrkdwn(rowText(s)) });
    if (s.canChange && s.id.length <= LIMITS.buttonValue)
      blocks.push({ type: "actions", block_id: `${BLOCK.homeRowPrefix}${i}`, elements: rowButtons(s) });
    if (i < rows.length - 1) blocks.push({ type: "divider" });
  });
  if (total > rows.length)
    blocks.push({
      type: "context",
      elements: [
        mrkdwn(`…and ${formatCount(total - rows.length)} more. \`${COMMAND} subscriptions\` lists them all.`),
      ],
    });
  return { type: "home", blocks };
}
