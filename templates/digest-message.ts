import { LIMITS, messageTextLength } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, truncate } from "../src/blockkit/text.ts";
import type { Block, Message } from "../src/blockkit/types.ts";
import type { Delta, Digest, DigestView } from "../src/insights/types.ts";
import { trendChartBlocks } from "./digest-chart.ts";
import { chartBlock, filterBlock, footerBlock, linksBlock, rangeBlock } from "./digest-controls.ts";
import { driversHeadline, driversParts } from "./digest-drivers.ts";
import { gapNotice, gapsOf, partialNote } from "./digest-notices.ts";
import { headerBlock, numbersBlock, scopeBlock, seriesWarning, trendBlock } from "./digest-summary.ts";
import { formatCount, formatPct } from "./format.ts";

/** Total-text target with room to spare under Slack's limit. */
const TEXT_TARGET = LIMITS.messageTotalText - 500;

function summaryPart(n: number, noun: string, d?: Delta): string {
  return `${formatCount(n)} ${noun}${d ? ` (${escapeMrkdwn(formatPct(d))})` : ""}`;
}

/**
 * The one-line `text` of a digest, what notifications and screen readers show: the numbers, and
 * when known the top drivers and whether data is missing (a notification must not read as good news
 * when a scanner went silent).
 *
 * @example "Insights Nov 15 – Nov 21, 2026: 1,234 findings (+12%), 321 violations (−5%), 87 fixes"
 */
export function digestSummary(digest: Digest, view?: Pick<DigestView, "drivers" | "digest">): string {
  const label = escapeMrkdwn(truncate(digest.range.label, 100));
  const numbers = `Insights ${label}: ${[
    summaryPart(digest.findings.current, "findings", digest.findings),
    summaryPart(digest.violations.current, "violations", digest.violations),
    summaryPart(digest.fixes, "fixes"),
  ].join(", ")}`;
  const headline = view?.drivers ? driversHeadline(view.drivers.drivers) : null;
  const incomplete = view && gapsOf(view).length > 0 ? " · data incomplete (possible scan outage)" : "";
  return `${numbers}${headline ? ` · ${truncate(headline, 300)}` : ""}${incomplete}`;
}

/**
 * The trend: a chart Slack draws with the notes under it when the digest is native (and a day has
 * data), else the text sparkline and, when one was uploaded, the chart image.
 */
export function trendBlocks(view: DigestView): (Block | null)[] {
  const native = view.chartStyle === "native" ? trendChartBlocks(view) : null;
  return native ?? [trendBlock(view.digest), chartBlock(view)];
}

/**
 * The digest message: numbers against the previous period, data-gap notices, the drivers when
 * asked for, trend, filter menus, range buttons, Why?, share and platform link, footer. Pure: everything, the data time included, comes
 * in the view.
 */
export function digestMessage(view: DigestView): Message {
  const { digest } = view;
  const drivers = driversParts(view);
  const text = digestSummary(digest, view) + drivers.fallback;
  const top: (Block | null)[] = [
    headerBlock(digest),
    scopeBlock(digest, view.filters, partialNote(view)),
    seriesWarning(digest.seriesCheck),
    gapNotice(view),
    numbersBlock(
      digest,
      gapsOf(view).some((g) => g.current),
    ),
    ...drivers.blocks,
    ...trendBlocks(view),
    { type: "divider" },
  ];
  const bottom: (Block | null)[] = [rangeBlock(view), linksBlock(view), footerBlock(view)];
  const fixed = [...top, ...bottom].filter((b) => b !== null);
  // The menus are the only part that grows with the account; they get what the rest leaves.
  const budget = TEXT_TARGET - messageTextLength({ blocks: fixed, text });
  const blocks = [...top, filterBlock(view, budget), ...bottom];
  return { blocks: blocks.filter((b) => b !== null), text };
}
