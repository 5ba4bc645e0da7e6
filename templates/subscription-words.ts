import { escapeMrkdwn, userText } from "../src/blockkit/text.ts";
import { slackDate } from "./format.ts";

/**
 * Wording shared by every surface that shows a subscription (the list, App Home, status, the
 * confirmation): where it posts, what it posts when, and how its last run ended. Pure.
 */

/** What the rows need beyond schedule and filters. */
export interface RunWords {
  channelId: string;
  ownerId: string;
  /** Canonical condition (`when violations up 10%`). */
  condition?: string;
  /** Set for alert subscriptions: the state last told. */
  alert?: "firing" | "clear" | "unchecked";
  /** A firing alert's episode: who acknowledged it, and until when it is snoozed (ISO, or "clear"). */
  episode?: { acknowledgedBy?: string; snoozedUntil?: string };
  /** How often people found the alert's messages useful, or not (its feedback buttons). */
  feedback?: { useful: number; notUseful: number };
  style?: "update" | "thread";
}

/** "was it useful? 👍 3 · 👎 1", or "" before anyone said. */
export function feedbackText(f: RunWords["feedback"]): string {
  return f && f.useful + f.notUseful > 0 ? `was it useful? 👍 ${f.useful} · 👎 ${f.notUseful}` : "";
}

const mention = (id: string) => (/^[UW][A-Z0-9]{2,30}$/.test(id) ? `<@${id}>` : userText(id, 40));

/** Whether the conversation is a person's DM with the app (a personal digest). */
export const isDm = (channelId: string) => /^D[A-Z0-9]{2,30}$/.test(channelId);

/** `in #channel`, or `by DM to @owner` for a personal digest. */
export function whereText(channelId: string, ownerId: string): string {
  if (isDm(channelId)) return `by DM to ${mention(ownerId)}`;
  return /^[CG][A-Z0-9]{2,30}$/.test(channelId) ? `in <#${channelId}>` : `in ${userText(channelId, 40)}`;
}

/** The condition and the style in words, or "" for a plain digest that posts every run. */
export function runOptionsText(w: RunWords): string {
  const parts: string[] = [];
  const cond = w.condition ? escapeMrkdwn(w.condition.replace(/`/g, "").slice(0, 80)) : "";
  if (w.alert) {
    const state =
      w.alert === "firing"
        ? ":rotating_light: firing now"
        : w.alert === "clear"
          ? ":white_check_mark: clear now"
          : "not checked yet";
    const e = w.alert === "firing" ? w.episode : undefined;
    const episode = [
      e?.acknowledgedBy ? `acknowledged by ${mention(e.acknowledgedBy)}` : "",
      e?.snoozedUntil
        ? `snoozed ${e.snoozedUntil === "clear" ? "until it clears" : `until ${when(e.snoozedUntil)}`}`
        : "",
      feedbackText(w.feedback),
    ].filter(Boolean);
    parts.push(
      `*Alert* ${cond} · one message per episode, updated as it changes · ${[state, ...episode].join(" · ")}`,
    );
  } else if (cond) parts.push(`Posts only ${cond}; other runs are skipped`);
  if (w.style === "update") parts.push("one message a day, updated in place");
  if (w.style === "thread") parts.push("runs as replies in one thread");
  return parts.join(" · ");
}

const when = (iso: string) => slackDate(iso) ?? userText(iso, 40);

/** The last run in one line; `reason` already in words. */
/** A subscription's own chart choice, for its row: " · chart: png"; nothing for the workspace's. */
export function chartWords(chart: string | undefined): string {
  return chart ? ` · chart: ${userText(chart, 10)}` : "";
}

/** What became of a delivered digest's chart, when not as planned. */
const CHART_OUTCOMES: Record<string, string> = {
  png_fallback: "the chart went as an image (Slack refused the chart or table block)",
  not_ready: "no chart (Slack had not processed the image in time)",
  upload_failed: "no chart (the image upload failed)",
  render_failed: "no chart (the image could not be drawn)",
  unchecked: "the image was attached without checking it (no files:read)",
};

export function lastRunText(
  last:
    | { at: string; outcome: "delivered" | "failed" | "skipped"; reason?: string; chart?: string }
    | undefined,
  reasonBudget = 300,
): string {
  if (!last) return "No delivery yet.";
  const why = last.reason ? `: ${userText(last.reason, reasonBudget)}` : "";
  if (last.outcome === "delivered") {
    const chart = last.chart
      ? ` · ${CHART_OUTCOMES[last.chart] ?? `chart: ${userText(last.chart, 30)}`}`
      : "";
    return `:white_check_mark: Last delivered ${when(last.at)}${chart}`;
  }
  // "skipped: <reason>": a run that posted nothing says so, and why, never silence.
  if (last.outcome === "skipped") return `:fast_forward: Last run ${when(last.at)} skipped${why}`;
  return `:x: Last delivery failed ${when(last.at)}${why}`;
}
