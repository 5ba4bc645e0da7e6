import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, plain, truncate, userText } from "../src/blockkit/text.ts";
import type {
  ActionElement,
  ActionsBlock,
  Block,
  ButtonElement,
  ContextActionsBlock,
  Message,
  SectionBlock,
} from "../src/blockkit/types.ts";
import { ACTION, BLOCK, GROUP_ACTION_PREFIX } from "../src/ids.ts";
import { breakdownOf, type Contribution, type Drivers } from "../src/insights/drivers.ts";
import type { Measure } from "../src/insights/period-totals.ts";
import type { DigestView, DriversView } from "../src/insights/types.ts";
import { type EpisodeView, episodeControls, type SnoozeKind } from "../src/subscriptions/alerts.ts";
import { trendChartBlocks } from "./digest-chart.ts";
import { exportCsvButton, stateOf } from "./digest-controls.ts";
import { numbersBlock, scopeBlock } from "./digest-summary.ts";
import { formatCount, formatSigned, slackDate } from "./format.ts";
import { type DigestState, encodeStateWithin, isCarriableGroup } from "./state.ts";

/**
 * An alert's messages. One message per episode: posted when the condition starts to hold, then
 * edited in place as its state changes (acknowledged, snoozed, cleared, paused), each change also a
 * short reply in its thread. The message is its head (the verdict, what was checked, the numbers,
 * what moved it), kept as fired, plus the state and the controls drawn anew each time. Pure.
 */

/** What moved the alert: the drivers between the day (or range) it fired on and what it is compared with. */
export interface ExplanationView {
  /** "Tue Nov 17 against Tue Oct 27 (181), the most typical of the last 8 Tuesdays" */
  label: string;
  measure: Measure;
  drivers: DriversView;
}

/** The firing message's content, without its state. */
export interface AlertHeadView {
  /** The verdict in words, with the value and the threshold or band: "violations 612 > 500". */
  reason: string;
  /** Canonical condition text. */
  condition: string;
  /** The digest the check read (its numbers are shown under the verdict). */
  view: DigestView;
  /** "Hourly at :00 Europe/Berlin" */
  schedule: string;
  subId: string;
  explanation?: ExplanationView;
  /** Why the message has no explanation (the breakdown could not be had). */
  unexplained?: string;
}

/** One change of an episode, as a reply in its thread. */
export type EpisodeEvent =
  | { kind: "acknowledged"; by: string; at: string }
  | { kind: "snoozed"; by: string; at: string; until?: string }
  | { kind: "cleared"; at: string; reason: string }
  | { kind: "resumed"; at: string; reason: string }
  | { kind: "paused"; by: string; at: string; subId: string };

const NAME_MAX = 40;
/** Contributors named per dimension, and buttons per dimension. */
const TOP = 3;
const TITLE: Record<Measure, string> = { violations: "Violations", findings: "Findings", fixes: "Fixes" };

const who = (id: string) => (/^[UW][A-Z0-9]{2,30}$/.test(id) ? `<@${id}>` : userText(id, 40));
const when = (iso: string) => slackDate(iso) ?? userText(iso, 40);

/** The contributors of a breakdown in the direction of its change first. */
function movers(drivers: Drivers, measure: Measure, dimension: "group" | "scanner"): Contribution[] {
  const b = breakdownOf(drivers, measure, dimension);
  if (!b || b.slices < 2) return [];
  return b.total.change >= 0 ? [...b.up, ...b.down] : [...b.down, ...b.up];
}

/** "*Violations* +232 (180 → 412)" and a line per dimension: "by asset group: payments/* +200 · other +32". */
function measureLines(drivers: Drivers, measure: Measure): string[] {
  const { current, previous } = drivers.total[measure];
  const lines = [
    `*${TITLE[measure]}* ${formatSigned(current - previous)} (${formatCount(previous)} → ${formatCount(current)})`,
  ];
  for (const dimension of ["group", "scanner"] as const) {
    const b = breakdownOf(drivers, measure, dimension);
    if (!b || b.slices < 2) continue;
    const items = movers(drivers, measure, dimension)
      .slice(0, TOP)
      .map((c) => `${userText(c.label, NAME_MAX)} ${formatSigned(c.change)}${c.isNew ? " (new)" : ""}`);
    if (b.other && b.other.change !== 0) items.push(`other ${formatSigned(b.other.change)}`);
    const by = dimension === "group" ? "by asset group" : "by scanner";
    lines.push(`    ${by}: ${items.length > 0 ? items.join(" · ") : "no change"}`);
  }
  return lines;
}

/** Silences in what the explanation compares: a drop may be missing data, never good news. */
function gapLines(d: DriversView): string[] {
  const gaps = d.gaps.filter((g) => g.current);
  if (gaps.length === 0) return [];
  const names = gaps
    .slice(0, 3)
    .map((g) => (g.dimension === "total" ? "any scanner" : userText(g.label, NAME_MAX)));
  return [
    `:warning: No data from ${names.join(", ")}${gaps.length > 3 ? ` and ${gaps.length - 3} more` : ""} that day — possible scan outage.`,
  ];
}

/** Buttons that narrow a digest to each named contributor (asset groups and scanners), same range. */
function narrowButtons(ex: ExplanationView, state: DigestState): ActionsBlock | null {
  const buttons: ButtonElement[] = [];
  const add = (c: Contribution, narrowed: DigestState) => {
    if (buttons.length >= 6 || c.key === null) return;
    buttons.push({
      type: "button",
      action_id: `${GROUP_ACTION_PREFIX}${buttons.length}`,
      text: plain(c.label, LIMITS.buttonText),
      value: encodeStateWithin(narrowed, LIMITS.buttonValue),
    });
  };
  for (const c of movers(ex.drivers.drivers, ex.measure, "group").slice(0, TOP))
    if (c.key !== null && isCarriableGroup(c.key)) add(c, { ...state, assetIds: [], assetGroups: [c.key] });
  for (const c of movers(ex.drivers.drivers, ex.measure, "scanner").slice(0, TOP))
    if (c.key !== null && c.key.length <= 75) add(c, { ...state, scannerIds: [c.key] });
  return buttons.length > 0
    ? { type: "actions", block_id: BLOCK.alertDriverButtons, elements: buttons }
    : null;
}

function explanationBlocks(ex: ExplanationView, state: DigestState, measures: readonly Measure[]): Block[] {
  const lines = [
    `*What moved it* · ${escapeMrkdwn(truncate(ex.label, 200))}`,
    ...gapLines(ex.drivers),
    ...measures.flatMap((m) => measureLines(ex.drivers.drivers, m)),
  ];
  const section: SectionBlock = {
    type: "section",
    block_id: BLOCK.alertDrivers,
    text: mrkdwn(lines.join("\n"), LIMITS.sectionText),
  };
  const buttons = narrowButtons(ex, state);
  return buttons ? [section, buttons] : [section];
}

/**
 * The head of a firing alert: the verdict first, then what was checked, the numbers, and what moved
 * it with buttons that narrow a digest to each contributor. Its `text` is the notification line.
 */
export function alertHead(a: AlertHeadView): { head: Block[]; text: string } {
  const reason = escapeMrkdwn(truncate(a.reason, 300));
  const cond = escapeMrkdwn(truncate(a.condition.replace(/`/g, ""), 100));
  const digest = a.view.digest;
  const head: Block[] = [
    { type: "section", text: mrkdwn(`:rotating_light: *Alert: ${reason}*`) },
    contextLine(cond, digest.range.label, a.schedule, a.subId),
    scopeBlock(digest, a.view.filters),
    numbersBlock(digest),
    // The trend behind the verdict, when the digest is native (a chart Slack draws, no file).
    ...(a.view.chartStyle === "native" ? (trendChartBlocks(a.view) ?? []) : []),
  ];
  if (a.explanation) head.push(...explanationBlocks(a.explanation, stateOf(a.view), [a.explanation.measure]));
  else if (a.unexplained)
    head.push({
      type: "context",
      elements: [mrkdwn(`:grey_question: No breakdown: ${escapeMrkdwn(truncate(a.unexplained, 300))}`)],
    });
  head.push({ type: "actions", block_id: BLOCK.digestLinks, elements: [exportCsvButton(a.view)] });
  return { head, text: `Alert: ${reason} (${cond})` };
}

function contextLine(cond: string, range: string, schedule: string, subId: string): Block {
  return {
    type: "context",
    elements: [
      mrkdwn(
        `Condition \`${cond}\` · ${escapeMrkdwn(range)} · checked ${escapeMrkdwn(truncate(schedule, 120))} · id \`${userText(subId, 40)}\``,
        LIMITS.contextText,
      ),
    ],
  };
}

/** Where the episode stands, most telling fact first. */
function stateLines(e: EpisodeView): string[] {
  const lines: string[] = [];
  if (e.cleared)
    lines.push(
      `:white_check_mark: *Cleared* ${when(e.cleared.at)}: ${escapeMrkdwn(truncate(e.cleared.reason, 300))}`,
    );
  else lines.push(`:red_circle: *Firing* since ${when(e.firedAt)}`);
  const s = e.snoozed;
  if (s && !e.cleared)
    lines.push(
      `:zzz: *Snoozed* ${s.until ? `until ${when(s.until)}` : "until it clears"} by ${who(s.by)} (${when(s.at)}): nothing is posted until then`,
    );
  if (e.acknowledged)
    lines.push(`:eyes: *Acknowledged* by ${who(e.acknowledged.by)} ${when(e.acknowledged.at)}`);
  if (e.paused)
    lines.push(
      `:double_vertical_bar: *Alert paused* ${when(e.paused.at)}: ${escapeMrkdwn(truncate(e.paused.reason, 200))}`,
    );
  return lines;
}

const SNOOZE_OPTIONS: [SnoozeKind, string][] = [
  ["hour", "1 hour"],
  ["day", "1 day"],
  ["week", "1 week"],
  ["clear", "Until it clears"],
];

function controls(subId: string, e: EpisodeView): ActionsBlock {
  const value = `${subId}|${e.id}`;
  const can = episodeControls(e);
  const elements: ActionElement[] = [];
  if (can.acknowledge)
    elements.push({
      type: "button",
      action_id: ACTION.alertAcknowledge,
      text: plain("Acknowledge", LIMITS.buttonText),
      style: "primary",
      value,
    });
  if (can.snooze)
    elements.push({
      type: "static_select",
      action_id: ACTION.alertSnooze,
      placeholder: plain("Snooze…", LIMITS.placeholder),
      options: SNOOZE_OPTIONS.map(([kind, label]) => ({
        text: plain(label, LIMITS.optionText),
        value: `${value}|${kind[0]}`,
      })),
    });
  elements.push({
    type: "button",
    action_id: ACTION.alertWhy,
    text: plain("Why?", LIMITS.buttonText),
    value,
  });
  if (can.pause)
    elements.push({
      type: "button",
      action_id: ACTION.alertPause,
      text: plain("Pause this alert", LIMITS.buttonText),
      value,
      confirm: {
        title: plain("Pause this alert?", 100),
        text: plain("It stops checking until someone resumes it (/insights resume).", 300),
        confirm: plain("Pause", 30),
        deny: plain("Keep it", 30),
      },
    });
  return { type: "actions", block_id: BLOCK.alertControls, elements };
}

function feedback(subId: string, ep: string): ContextActionsBlock {
  const value = `${subId}|${ep}`;
  return {
    type: "context_actions",
    block_id: BLOCK.alertFeedback,
    elements: [
      {
        type: "feedback_buttons",
        action_id: ACTION.alertFeedback,
        positive_button: {
          text: plain("👍", LIMITS.buttonText),
          value: `${value}|+`,
          accessibility_label: "This alert was useful",
        },
        negative_button: {
          text: plain("👎", LIMITS.buttonText),
          value: `${value}|-`,
          accessibility_label: "This alert was not useful",
        },
      },
    ],
  };
}

/**
 * The episode's message as it stands: the head as fired with the state under its headline, the
 * controls that still apply, and "was it useful?".
 */
export function alertEpisodeMessage(
  head: readonly Block[],
  text: string,
  subId: string,
  e: EpisodeView,
): Message {
  const state: SectionBlock = {
    type: "section",
    block_id: BLOCK.alertState,
    text: mrkdwn(stateLines(e).join("\n"), LIMITS.sectionText),
  };
  const [headline, ...rest] = head;
  const blocks: Block[] = [
    ...(headline ? [headline] : []),
    state,
    ...rest,
    controls(subId, e),
    feedback(subId, e.id),
  ];
  // A new episode notifies with its verdict alone; a redrawn one says first where it stands.
  const word = e.cleared
    ? "Cleared"
    : e.paused
      ? "Paused"
      : e.snoozed
        ? "Snoozed"
        : e.acknowledged
          ? "Acknowledged"
          : "";
  return { blocks, text: word ? `${word} · ${truncate(text, 2_000)}` : truncate(text, 2_000) };
}

/** A change of the episode, as a reply in its thread. */
export function episodeReply(ev: EpisodeEvent): Message {
  const line = (() => {
    switch (ev.kind) {
      case "acknowledged":
        return `:eyes: Acknowledged by ${who(ev.by)} ${when(ev.at)}.`;
      case "snoozed":
        return `:zzz: Snoozed ${ev.until ? `until ${when(ev.until)}` : "until it clears"} by ${who(ev.by)}: nothing is posted until then.`;
      case "cleared":
        return `:white_check_mark: Cleared ${when(ev.at)}: ${escapeMrkdwn(truncate(ev.reason, 300))}`;
      case "resumed":
        return `:rotating_light: The snooze ended and the alert still holds: ${escapeMrkdwn(truncate(ev.reason, 300))}`;
      case "paused":
        return `:double_vertical_bar: Alert paused by ${who(ev.by)} ${when(ev.at)}. \`/insights resume ${userText(ev.subId, 40)}\` starts it again.`;
    }
  })();
  return { blocks: [{ type: "section", text: mrkdwn(line, LIMITS.sectionText) }], text: line };
}

/** Why? on an alert, answered privately: every measure by asset group and scanner, the gaps, the buttons. */
export function alertWhyMessage(ex: ExplanationView, state: DigestState): Message {
  const blocks = explanationBlocks(ex, state, ["violations", "findings", "fixes"]);
  return { blocks, text: `What moved it: ${truncate(ex.label, 200)}` };
}

/** A test send ("send now") of an alert, and the all-clear of an episode that has no message to edit. */
export interface AlertMessageView {
  kind: "clear" | "check";
  reason: string;
  condition: string;
  view: DigestView;
  schedule: string;
  subId: string;
  /** Whether the condition holds right now (a test send says which way it would go). */
  met: boolean;
}

/** The one-off messages of an alert: what a check says now, or an all-clear posted on its own. */
export function alertMessage(a: AlertMessageView): Message {
  const reason = escapeMrkdwn(truncate(a.reason, 300));
  const cond = escapeMrkdwn(truncate(a.condition.replace(/`/g, ""), 100));
  const digest = a.view.digest;
  const status =
    a.kind === "clear"
      ? "The alert is clear again; the next message comes when it starts again."
      : a.met
        ? "The condition holds: the alert is (or would be) firing."
        : "The condition does not hold: the alert is (or would be) clear.";
  const headline =
    a.kind === "clear"
      ? `:white_check_mark: *Cleared: ${reason}*`
      : `:mag: *Alert check, sent now: ${reason}*`;
  const blocks: Block[] = [
    { type: "section", text: mrkdwn(`${headline}\n${status}`) },
    contextLine(cond, digest.range.label, a.schedule, a.subId),
    scopeBlock(digest, a.view.filters),
    numbersBlock(digest),
    // The trend behind the verdict, when the digest is native (a chart Slack draws, no file).
    ...(a.view.chartStyle === "native" ? (trendChartBlocks(a.view) ?? []) : []),
    { type: "actions", block_id: BLOCK.digestLinks, elements: [exportCsvButton(a.view)] },
  ];
  return { blocks, text: `${a.kind === "clear" ? "Cleared" : "Alert check"}: ${reason} (${cond})` };
}
