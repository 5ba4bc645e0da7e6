import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn } from "../src/blockkit/text.ts";
import type { Block } from "../src/blockkit/types.ts";
import type { Delta, DigestView } from "../src/insights/types.ts";
import { scopeBlock } from "./digest-summary.ts";
import { changeMark, formatCount, formatPct } from "./format.ts";

function moved(title: string, d: Delta): string {
  const change = d.isNew ? "new" : d.change === 0 ? "no change" : escapeMrkdwn(formatPct(d));
  return `*${title}*\n${formatCount(d.current)}  ${changeMark(d)} ${change}`;
}

/**
 * The compact digest shown under a pasted platform link: the period, the four headline numbers and
 * what was compared and filtered. No controls: an unfurl belongs to someone else's message.
 */
export function unfurlBlocks(view: DigestView): Block[] {
  const { digest } = view;
  return [
    {
      type: "section",
      text: mrkdwn(`*Insights · ${escapeMrkdwn(digest.range.label)}*`),
      fields: [
        moved("Findings", digest.findings),
        moved("Violations", digest.violations),
        `*Fixes*\n${formatCount(digest.fixes)}`,
        `*Merged violations*\n${formatCount(digest.mergedViolations)}`,
      ].map((f) => mrkdwn(f, LIMITS.sectionFieldText)),
    },
    scopeBlock(digest, view.filters),
  ];
}
