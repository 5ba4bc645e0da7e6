import type { WebClient } from "@slack/web-api";
import { ADJUST_FIELD_CHARS } from "../../templates/ask-adjust-modal.ts";
import {
  type AnswerFigure,
  type AskTrouble,
  askDigestMessage,
  askExamplesMessage,
  askExportMessage,
  askProposalMessage,
} from "../../templates/ask-answer.ts";
import { encodeAdjust, fieldsOf, overLimit } from "../ask/adjust.ts";
import { extremesOf, type Figure } from "../ask/figures.ts";
import { METRIC_NAMES } from "../ask/metrics.ts";
import { encodeProposal, offered, proposalOf } from "../ask/proposal.ts";
import { subjectNames } from "../ask/read.ts";
import { slashText } from "../ask/request.ts";
import type { AskReading } from "../ask/types.ts";
import { rollingWords, scheduleWords, understoodText } from "../ask/understood.ts";
import type { Message } from "../blockkit/types.ts";
import { type AskAnswer, answerQuestion } from "../digests/ask-service.ts";
import { randomId } from "../random-id.ts";
import { buttonValue } from "./ask-carried.ts";
import { exportCsv, exportedText } from "./export.ts";
import type { RequestContext } from "./frame/index.ts";
import { sendWithFallback } from "./refusal.ts";

/**
 * Questions in plain words, answered in their thread: a status line while the numbers are
 * fetched, then the answer the slash command's machinery computes, saying first what it understood.
 */

/** Where a question was asked: a DM with the app or a channel where it was mentioned. */
export interface Conversation {
  channelId: string;
  threadTs: string;
}

/** What the status line says while the answer is being worked out. */
export const STATUS_TEXT = "is reading the numbers…";

/**
 * Sets (or, with "", clears) the thread's status line. Slack clears it by itself when the app
 * posts in the thread; a failure only loses the indicator, so it is logged, never thrown.
 */
export async function setThreadStatus(
  ctx: Pick<RequestContext, "client" | "log">,
  where: Conversation,
  status: string,
): Promise<void> {
  try {
    await ctx.client.assistant.threads.setStatus({
      channel_id: where.channelId,
      thread_ts: where.threadTs,
      status,
    });
  } catch (err) {
    ctx.log.info({ code: (err as { data?: { error?: string } }).data?.error }, "thread status not set");
  }
}

const UP_IS_GOOD = new Set(["fixes", "fixRate"]);

function answerFigure(f: Figure): AnswerFigure {
  return {
    label: METRIC_NAMES[f.metric],
    current: f.current,
    previous: f.previous,
    kind: f.metric === "fixRate" ? "rate" : "count",
    upIsGood: UP_IS_GOOD.has(f.metric),
  };
}

function troubleOf(reading: AskReading): AskTrouble {
  return reading.problem ?? { kind: "help" };
}

const NOUNS = {
  findings: "findings",
  violations: "violations",
  fixes: "fixes",
  merged: "merged",
  fixRate: "violations",
};

/** A proposal in words: `a digest by DM, weekly on Mon at 09:00 (Europe/Berlin), the last 7 days, all assets and scanners`. */
function proposalWords(r: AskReading, tz: string): string {
  const subjects = subjectNames(r.subjects);
  const what = r.intent === "alert" ? `an alert by DM ${r.condition ?? ""}`.trim() : "a digest by DM";
  const when = r.schedule ? `${scheduleWords(r.schedule)} (${tz})` : "";
  return [
    what,
    when,
    rollingWords(r.range.spec),
    subjects.length > 0 ? subjects.join(", ") : "all assets and scanners",
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * The answer as a Slack message (a CSV is uploaded to the conversation on the way), and the same
 * answer without chart and table blocks, for a workspace or client that refuses them.
 */
export async function renderAnswer(
  ctx: Pick<RequestContext, "client" | "userId" | "log" | "deps" | "ref">,
  answer: AskAnswer,
  where: Conversation,
  tz: string,
): Promise<{ message: Message; plain?: () => Message }> {
  const r = answer.reading;
  if (answer.kind === "examples")
    return { message: askExamplesMessage({ trouble: troubleOf(r), examples: answer.examples }) };
  const understood = { understood: understoodText(r, tz), notes: r.notes, slash: slashText(r) };
  if (answer.kind === "proposal") {
    const proposal = offered(proposalOf(r), randomId(), ctx.deps.clock());
    const confirm = await buttonValue(ctx, encodeProposal(proposal));
    return {
      message: askProposalMessage({
        ...understood,
        description: proposalWords(r, tz),
        mode: proposal.mode,
        confirm,
        change: confirm,
      }),
    };
  }
  const fields = fieldsOf(r);
  const over = overLimit(fields);
  // Names the form cannot hold whole get no form rather than a form that drops some of them.
  if (over)
    understood.notes = [
      ...understood.notes,
      `This answer names more than the Adjust form holds (${ADJUST_FIELD_CHARS[over].toLocaleString("en-US")} characters of ${over}): ask again to change it.`,
    ];
  const adjust = over ? undefined : await buttonValue(ctx, encodeAdjust(fields));
  if (answer.kind === "export") {
    const place = await exportCsv(ctx, answer.view, where.channelId);
    return { message: askExportMessage({ ...understood, done: exportedText(answer.view, place), adjust }) };
  }
  const metric = r.metrics[0] ?? "violations";
  const extremes = r.intent === "trend" ? extremesOf(metric, answer.view.digest) : null;
  const build = (digest: typeof answer.view) =>
    askDigestMessage({
      ...understood,
      figures: answer.figures.map(answerFigure),
      ...(extremes
        ? {
            extremes: {
              noun: NOUNS[extremes.metric],
              busiest: extremes.busiest,
              quietest: extremes.quietest,
            },
          }
        : {}),
      digest,
      adjust,
    });
  return { message: build(answer.view), plain: () => build({ ...answer.view, chartStyle: "off" }) };
}

/**
 * Answers `text` in its thread: status line, the answer, posted as a reply. Errors go to the frame
 * (its one reply shape), after the status line is cleared.
 */
export async function answerInThread(
  ctx: RequestContext,
  text: string,
  where: Conversation,
  opts: { botUserId?: string; maxChars?: number } = {},
): Promise<void> {
  await setThreadStatus(ctx, where, STATUS_TEXT);
  try {
    const user = await ctx.user();
    const answer = await answerQuestion(ctx.deps.digests, {
      ref: ctx.ref,
      text,
      tz: user.tz,
      now: ctx.deps.clock(),
      ...opts,
    });
    const { message, plain } = await renderAnswer(ctx, answer, where, user.tz);
    await sendWithFallback(
      message,
      plain ?? (() => message),
      (m) => postInThread(ctx.client, where, m),
      (refusal) => ctx.log.warn({ refusal }, "chart or table refused; answering without them"),
    );
    ctx.log.info({ answer: answer.kind, intent: answer.reading.intent }, "question answered");
  } catch (err) {
    await setThreadStatus(ctx, where, "");
    throw err;
  }
}

export function postInThread(client: WebClient, where: Conversation, message: Message) {
  return client.chat.postMessage({
    channel: where.channelId,
    thread_ts: where.threadTs,
    ...message,
    unfurl_links: false,
    unfurl_media: false,
  });
}
