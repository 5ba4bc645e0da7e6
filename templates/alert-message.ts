import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, truncate, userText } from "../src/blockkit/text.ts";
import type { Block, Message } from "../src/blockkit/types.ts";
import { BLOCK } from "../src/ids.ts";
import type { DigestView } from "../src/insights/types.ts";
import { trendChartBlocks } from "./digest-chart.ts";
import { exportCsvButton } from "./digest-controls.ts";
import { numbersBlock, scopeBlock } from "./digest-summary.ts";

/** One message of an alert subscription. */
export interface AlertMessageView {
  /** `fire`: the condition became true; `clear`: it stopped being true; `check`: a test send. */
  kind: "fire" | "clear" | "check";
  /** The verdict in words, with the value and the threshold: "violations 612 > 500". */
  reason: string;
  /** Canonical condition text. */
  condition: string;
  /** The digest the check read (its numbers are shown under the verdict). */
  view: DigestView;
  /** "Hourly at :00 Europe/Berlin" */
  schedule: string;
  subId: string;
  /** Whether the condition holds right now (a test send says which way it would go). */
  met: boolean;
}

const HEADLINE = {
  fire: (r: string) => `:rotating_light: *Alert: ${r}*`,
  clear: (r: string) => `:white_check_mark: *Cleared: ${r}*`,
  check: (r: string) => `:mag: *Alert check, sent now: ${r}*`,
};

/**
 * The message an alert posts when its condition starts to hold, and once more when it clears: the
 * verdict with the value and the threshold first, then what was checked (range, filters, schedule)
 * and the numbers. Pure.
 */
export function alertMessage(a: AlertMessageView): Message {
  const reason = escapeMrkdwn(truncate(a.reason, 300));
  const cond = escapeMrkdwn(truncate(a.condition.replace(/`/g, ""), 100));
  const digest = a.view.digest;
  const status =
    a.kind === "check"
      ? a.met
        ? "The condition holds: the alert is (or would be) firing."
        : "The condition does not hold: the alert is (or would be) clear."
      : a.kind === "fire"
        ? "Posted once now; one more message follows when it clears."
        : "The alert is clear again; the next message comes when it starts again.";
  const blocks: Block[] = [
    { type: "section", text: mrkdwn(`${HEADLINE[a.kind](reason)}\n${status}`) },
    {
      type: "context",
      elements: [
        mrkdwn(
          `Condition \`${cond}\` · ${escapeMrkdwn(digest.range.label)} · checked ${escapeMrkdwn(truncate(a.schedule, 120))} · id \`${userText(a.subId, 40)}\``,
          LIMITS.contextText,
        ),
      ],
    },
    scopeBlock(digest, a.view.filters),
    numbersBlock(digest),
    // The trend behind the verdict, when the digest is native (a chart Slack draws, no file).
    ...(a.view.chartStyle === "native" ? (trendChartBlocks(a.view) ?? []) : []),
    {
      type: "actions",
      block_id: BLOCK.digestLinks,
      elements: [exportCsvButton(a.view)],
    },
  ];
  const word = a.kind === "fire" ? "Alert" : a.kind === "clear" ? "Cleared" : "Alert check";
  return { blocks, text: `${word}: ${reason} (${cond})` };
}
