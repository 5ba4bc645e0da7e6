import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, plain, userText } from "../src/blockkit/text.ts";
import type { Block, ButtonElement, Message } from "../src/blockkit/types.ts";
import { ACTION, BLOCK, COMMAND } from "../src/ids.ts";
import { formatCount, slackDate } from "./format.ts";
import { chartWords, lastRunText, type RunWords, runOptionsText, whereText } from "./subscription-words.ts";

/** One subscription as the list shows it; the store's record mapped to words by the caller. */
export interface SubscriptionView {
  id: string;
  channelId: string;
  ownerId: string;
  /** e.g. "Weekly on Mon at 09:00" */
  schedule: string;
  /** IANA zone of the schedule. */
  tz: string;
  /** Range spec, e.g. `last7d`. */
  range: string;
  /** Filter names (not ids); empty = no filter. */
  filterNames: string[];
  /** False when the subscription's digests leave out the drivers section (absent = on). */
  drivers?: boolean;
  /** The subscription's own chart style; absent = the workspace's setting. */
  chart?: string;
  /** Canonical condition (`when violations up 10%`). */
  condition?: RunWords["condition"];
  /** Set for alert subscriptions: the state last told. */
  alert?: RunWords["alert"];
  episode?: RunWords["episode"];
  feedback?: RunWords["feedback"];
  style?: RunWords["style"];
  paused: boolean;
  pausedReason?: string;
  /** ISO instant of the next delivery. */
  nextRunAt?: string;
  /** `chart`: what became of a delivered digest's chart when not as planned (`png_fallback`, …). */
  lastDelivery?: { at: string; outcome: "delivered" | "failed" | "skipped"; reason?: string; chart?: string };
  /** The viewer owns it: its buttons show even to someone who does not manage the workspace. */
  canChange?: boolean;
}

export interface SubscriptionListOptions {
  /** Management buttons only for those allowed to use them. */
  canManage: boolean;
  /** Index of the first subscription shown (from the "Next page" button's value). */
  offset?: number;
  /** Rows per page; capped so a page stays well inside 50 blocks. */
  pageSize?: number;
  /** Show an Edit button (when the subscribe modal can edit). */
  editable?: boolean;
}

/** 3 blocks per row + 4 around them: 14 rows is 46 blocks, the most that fits 50. */
const MAX_PAGE = 14;
const DEFAULT_PAGE = 10;

const user = (id: string) => (/^[UW][A-Z0-9]{2,30}$/.test(id) ? `<@${id}>` : userText(id, 40));
const when = (iso: string) => slackDate(iso) ?? userText(iso, 40);

function describe(s: SubscriptionView): string {
  const filters =
    s.filterNames.length === 0
      ? "no filters"
      : s.filterNames
          .slice(0, 5)
          .map((n) => userText(n, 60))
          .join(", ");
  const more = s.filterNames.length > 5 ? ` +${formatCount(s.filterNames.length - 5)} more` : "";
  const lines = [
    `*${userText(s.schedule, 100)}* (${userText(s.tz, 60)}) ${whereText(s.channelId, s.ownerId)}`,
  ];
  const options = runOptionsText(s);
  if (options) lines.push(options);
  if (s.paused)
    lines.push(`:double_vertical_bar: Paused${s.pausedReason ? `: ${userText(s.pausedReason, 300)}` : ""}`);
  else if (s.nextRunAt) lines.push(`Next: ${when(s.nextRunAt)}`);
  if (s.lastDelivery) lines.push(lastRunText(s.lastDelivery));
  // Status comes before the filters: when a row is cut to its budget, hostile names go first.
  lines.push(
    `Range \`${escapeMrkdwn(s.range.replace(/`/g, "").slice(0, 40))}\`${s.drivers === false ? " · no drivers" : ""}${chartWords(s.chart)} · set up by ${user(s.ownerId)} · ${filters}${more}`,
  );
  return lines.join("\n");
}

function button(actionId: string, label: string, id: string, style?: "danger"): ButtonElement {
  const b: ButtonElement = {
    type: "button",
    action_id: actionId,
    text: plain(label, LIMITS.buttonText),
    value: id,
  };
  if (style) b.style = style;
  return b;
}

function rowButtons(s: SubscriptionView, editable: boolean): ButtonElement[] {
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
      ? button(ACTION.subscriptionResume, "Resume", s.id)
      : button(ACTION.subscriptionPause, "Pause", s.id),
    button(ACTION.subscriptionSend, "Send now", s.id),
    ...(editable ? [button(ACTION.subscriptionEdit, "Edit", s.id)] : []),
    del,
  ];
}

/**
 * The subscription list, one page at a time, with pause/resume, send-now and delete per row (the
 * button value is the subscription id). A "Next page" button carries the next offset.
 */
export function subscriptionList(subs: SubscriptionView[], opts: SubscriptionListOptions): Message {
  const size = Math.min(MAX_PAGE, Math.max(1, Math.floor(opts.pageSize ?? DEFAULT_PAGE)));
  const offset = Math.min(Math.max(0, Math.floor(opts.offset ?? 0)), Math.max(0, subs.length - 1));
  const page = subs.slice(offset, offset + size);
  const total = formatCount(subs.length);
  const text =
    subs.length === 0 ? "No subscriptions yet" : `${total} subscription${subs.length === 1 ? "" : "s"}`;
  const blocks: Block[] = [{ type: "header", text: plain("Scheduled digests", LIMITS.headerText) }];
  if (subs.length === 0) {
    blocks.push({
      type: "section",
      text: mrkdwn(
        `No subscriptions yet. \`${COMMAND} subscribe weekly mon 09:00\` posts a digest in a channel every Monday.`,
      ),
    });
    return { blocks, text };
  }
  blocks.push({
    type: "context",
    elements: [mrkdwn(`${text} · showing ${formatCount(offset + 1)}–${formatCount(offset + page.length)}`)],
  });
  // Each row's text is cut to its share of the message's total-text limit (buttons and confirm take ~400).
  const rowBudget = Math.min(
    LIMITS.sectionText,
    Math.floor((LIMITS.messageTotalText - 1000) / page.length) - 400,
  );
  page.forEach((s, i) => {
    blocks.push({ type: "section", text: mrkdwn(describe(s), rowBudget) });
    const ok =
      (opts.canManage || s.canChange === true) && s.id.length > 0 && s.id.length <= LIMITS.buttonValue;
    if (ok)
      blocks.push({
        type: "actions",
        block_id: `${BLOCK.subscriptionRowPrefix}${offset + i}`,
        elements: rowButtons(s, opts.editable ?? false),
      });
    if (i < page.length - 1) blocks.push({ type: "divider" });
  });
  const rest = subs.length - offset - page.length;
  if (rest > 0) {
    const next = button(ACTION.subscriptionsPage, "Next page", String(offset + page.length));
    blocks.push({ type: "context", elements: [mrkdwn(`…and ${formatCount(rest)} more.`)] });
    blocks.push({ type: "actions", block_id: BLOCK.subscriptionsMore, elements: [next] });
  }
  return { blocks, text };
}
