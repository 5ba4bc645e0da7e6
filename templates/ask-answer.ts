import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, plain, truncate, userText } from "../src/blockkit/text.ts";
import type { Block, ButtonElement, Message } from "../src/blockkit/types.ts";
import { ACTION, BLOCK, COMMAND } from "../src/ids.ts";
import { delta } from "../src/insights/delta.ts";
import type { DigestView } from "../src/insights/types.ts";
import { digestMessage } from "./digest-message.ts";
import { changeMark, formatCount, formatDay, formatPct, formatRate, formatSigned } from "./format.ts";

/**
 * Answers to questions asked in plain words. Every answer starts with what was understood, so a
 * misread shows before any number, with a button to adjust it; the numbers are the slash command's
 * own digest. Questions it cannot read get examples it can, and a schedule is only ever proposed.
 */

/** One number the answer leads with. */
export interface AnswerFigure {
  label: string;
  current: number | null;
  /** The compared period's value; null when the service reports none. */
  previous: number | null;
  /** `rate`: 0..1, shown in percent, compared in points. */
  kind: "count" | "rate";
  /** More is good news (fixes), or bad (violations). */
  upIsGood: boolean;
}

/** The busiest and quietest day, for a trend question. */
export interface AnswerExtremes {
  noun: string;
  busiest: { day: string; value: number };
  quietest: { day: string; value: number };
}

export interface UnderstoodView {
  /** The reading in words (plain text; escaped here). */
  understood: string;
  /** How it was computed, where that needs saying. */
  notes: string[];
  /** The slash command that asks the same, when there is one. */
  slash?: string;
}

export interface AskDigestView extends UnderstoodView {
  figures: AnswerFigure[];
  extremes?: AnswerExtremes;
  digest: DigestView;
  /** The Adjust button's value (the reading as the modal's fields); none when the form cannot hold them. */
  adjust?: string;
}

const MAX_NOTE = 300;

function understoodBlock(v: UnderstoodView): Block {
  const lines = [`:mag: *Understood:* ${userText(v.understood, 1_200)}`];
  for (const n of v.notes.slice(0, 3)) lines.push(`_${userText(n, MAX_NOTE)}_`);
  if (v.slash) lines.push(`Same as \`${userText(`${COMMAND} ${v.slash}`.replace(/`/g, ""), 300)}\``);
  return {
    type: "context",
    block_id: BLOCK.askUnderstood,
    elements: [mrkdwn(lines.join("\n"), LIMITS.contextText)],
  };
}

function figureLine(f: AnswerFigure): string {
  const shown = (n: number | null) => (n === null ? "–" : f.kind === "rate" ? formatRate(n) : formatCount(n));
  const head = `*${escapeMrkdwn(f.label)}: ${shown(f.current)}*`;
  if (f.current === null || f.previous === null)
    return f.previous === null && f.current !== null ? head : `${head} (no data)`;
  if (f.kind === "rate") {
    const points = Math.round((f.current - f.previous) * 1000) / 10;
    const mark = changeMark(delta(f.current, f.previous, f.upIsGood ? "up-is-good" : "up-is-bad"));
    const change = points === 0 ? "no change" : `${points > 0 ? "+" : "−"}${Math.abs(points)} points`;
    return `${head}  ${mark} ${change} from ${shown(f.previous)}`;
  }
  const d = delta(f.current, f.previous, f.upIsGood ? "up-is-good" : "up-is-bad");
  const change = d.isNew
    ? "new"
    : d.change === 0
      ? "no change"
      : `${formatSigned(d.change)} (${escapeMrkdwn(formatPct(d))})`;
  return `${head}  ${changeMark(d)} ${change} from ${shown(f.previous)}`;
}

function adjustButton(value: string): ButtonElement {
  return { type: "button", action_id: ACTION.askAdjust, text: plain("Adjust", LIMITS.buttonText), value };
}

/** The block limit leaves room for the understood line and the headline on top of any digest. */
const MAX_BLOCKS = 50;

/** The answer to a digest, Why?, or trend question: understood, the figures asked about, then the digest. */
export function askDigestMessage(v: AskDigestView): Message {
  const lines = v.figures.map(figureLine);
  if (v.extremes) {
    const e = v.extremes;
    lines.push(
      `Busiest day ${formatDay(e.busiest.day)} (${formatCount(e.busiest.value)} ${escapeMrkdwn(e.noun)}) · quietest ${formatDay(e.quietest.day)} (${formatCount(e.quietest.value)})`,
    );
  }
  const headline: Block = {
    type: "section",
    block_id: BLOCK.askHeadline,
    text: mrkdwn(lines.join("\n") || "–"),
    ...(v.adjust ? { accessory: adjustButton(v.adjust) } : {}),
  };
  const digest = digestMessage(v.digest);
  const blocks = [understoodBlock(v), headline, ...digest.blocks].slice(0, MAX_BLOCKS);
  const first = v.figures[0];
  const summary = first
    ? `${first.label}: ${first.current === null ? "–" : first.kind === "rate" ? formatRate(first.current) : formatCount(first.current)} · `
    : "";
  return { blocks, text: truncate(`${summary}${digest.text}`, 3_000) };
}

/** After a CSV export asked in words: what was understood, and where the file went. */
export function askExportMessage(v: UnderstoodView & { done: string; adjust?: string }): Message {
  return {
    blocks: [
      understoodBlock(v),
      {
        type: "section",
        block_id: BLOCK.askHeadline,
        text: mrkdwn(v.done),
        ...(v.adjust ? { accessory: adjustButton(v.adjust) } : {}),
      },
    ],
    text: truncate(v.done.replace(/[*_`]/g, ""), 3_000),
  };
}

/** Why a question got examples instead of numbers. */
export type AskTrouble =
  | { kind: "too_long"; chars: number; limit: number }
  | { kind: "unread"; words: string[] }
  | { kind: "ambiguous"; typed: string; suggestions: string[] }
  | { kind: "bad_range"; message: string }
  | { kind: "bad_condition"; message: string }
  | { kind: "compare_subjects"; names: string[] }
  | { kind: "manage"; action: "stop" | "pause" | "resume" }
  | { kind: "help" };

/** The command for each wish, in the words of the trouble text. */
const MANAGE_COMMAND = {
  stop: `\`${COMMAND} unsubscribe <id>\` deletes one.`,
  pause: `\`${COMMAND} pause <id>\` stops one for now.`,
  resume: `\`${COMMAND} resume <id>\` starts a paused one again.`,
} as const;

const quoted = (w: string) => `“${userText(w, 60)}”`;

function troubleText(t: AskTrouble): string {
  switch (t.kind) {
    case "too_long":
      return `:scroll: That question is ${formatCount(t.chars)} characters long and I read questions of up to ${formatCount(t.limit)}, so I have not answered it: I would rather not answer part of a question. Ask it in fewer words, or one thing at a time.`;
    case "unread":
      return t.words.length > 0
        ? `:thinking_face: I could not read ${t.words.slice(0, 6).map(quoted).join(", ")}${t.words.length > 6 ? " and more" : ""} in that, so I would rather not guess.`
        : ":thinking_face: I could not tell what to look up from that.";
    case "ambiguous":
      return `:thinking_face: Several things are called ${quoted(t.typed)}: ${t.suggestions.slice(0, 5).map(quoted).join(", ")}. Ask again with the full name.`;
    case "bad_range":
      return `:calendar: ${userText(t.message, 300)}`;
    case "bad_condition":
      return `:thinking_face: ${userText(t.message, 300)}`;
    case "compare_subjects":
      return `:thinking_face: I compare a period with an earlier one, not ${t.names.slice(0, 4).map(quoted).join(" with ")} with each other: ask about each on its own, or ask why the numbers changed to see each group's and scanner's part.`;
    case "manage":
      return `:gear: A question does not change what is sent. \`${COMMAND} subscriptions\` lists the digests and alerts set up here, with their ids and buttons to pause, resume or delete them; ${MANAGE_COMMAND[t.action]} Your own are also on the app's Home tab.`;
    case "help":
      return "I answer questions about this workspace's findings, violations, fixes and merged violations: how they stand, why they changed, their trend, a CSV, or a digest or alert sent to you.";
  }
}

/**
 * Examples instead of an answer: what was wrong, questions that work (from the account's own
 * names), and that no model is involved.
 */
export function askExamplesMessage(v: { trouble: AskTrouble; examples: string[] }): Message {
  const examples = v.examples.slice(0, 7).map((e) => `• ${userText(e, 200)}`);
  const intro = troubleText(v.trouble);
  return {
    blocks: [
      { type: "section", text: mrkdwn(intro) },
      { type: "section", text: mrkdwn(`*Questions I can answer, for example:*\n${examples.join("\n")}`) },
      {
        type: "context",
        elements: [
          mrkdwn(
            `I read questions with fixed rules, not a language model: what you write goes nowhere but this workspace's analytics service. \`${COMMAND} help\` lists the commands.`,
          ),
        ],
      },
    ],
    text: truncate(intro.replace(/:[a-z_]+: /, ""), 3_000),
  };
}

export interface AskProposalView extends UnderstoodView {
  /** `a digest by DM, weekly on Mon at 09:00 (Europe/Berlin), the last 7 days, all assets and scanners` (plain). */
  description: string;
  mode: "digest" | "alert";
  /** Confirm's value; absent when the filters do not fit a button. */
  confirm?: string;
  /** The value of "Change first", which opens the subscribe modal filled in. */
  change?: string;
}

/** A subscription or alert a question asked for, with a button to confirm it: nothing is set up before. */
export function askProposalMessage(v: AskProposalView): Message {
  const what = v.mode === "alert" ? "this alert" : "this digest";
  const elements: ButtonElement[] = [];
  if (v.confirm)
    elements.push({
      type: "button",
      action_id: ACTION.askConfirm,
      style: "primary",
      text: plain(v.mode === "alert" ? "Set up the alert" : "Set up the digest", LIMITS.buttonText),
      value: v.confirm,
    });
  if (v.change)
    elements.push({
      type: "button",
      action_id: ACTION.askChange,
      text: plain("Change first…", LIMITS.buttonText),
      value: v.change,
    });
  const body = v.confirm
    ? `I can set up ${what} for you: *${userText(v.description, 1_000)}*.\nNothing is set up until you press the button.`
    : `That is too many filters for a button: use \`${COMMAND} ${userText(v.slash ?? "subscribe me", 300)}\` instead.`;
  const blocks: Block[] = [understoodBlock(v), { type: "section", text: mrkdwn(body) }];
  if (elements.length > 0) blocks.push({ type: "actions", elements });
  return { blocks, text: truncate(`Proposed: ${v.description}`, 3_000) };
}
