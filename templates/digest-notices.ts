import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, userText } from "../src/blockkit/text.ts";
import type { SectionBlock } from "../src/blockkit/types.ts";
import { BLOCK } from "../src/ids.ts";
import type { DataGap } from "../src/insights/gaps.ts";
import type { DigestView } from "../src/insights/types.ts";
import { formatCount, formatDay } from "./format.ts";

/**
 * A zero you can trust: silences that look like scan outages, said as such, and what they do to
 * the totals. Good news is never shown without this caveat when the data has a hole in it.
 */

/** Gaps listed by name; the rest are counted. */
const SHOWN = 5;
const NAME_MAX = 60;

/** The gaps a digest knows of: per scanner and asset group when it has drivers, else its own series'. */
export function gapsOf(view: Pick<DigestView, "drivers" | "digest">): DataGap[] {
  return view.drivers?.gaps ?? view.digest.completeness?.gaps ?? [];
}

function source(g: DataGap): string {
  return g.dimension === "total" ? "any scanner" : `*${userText(g.label, NAME_MAX)}*`;
}

/**
 * @example gapLine(gap) // "No data from *SCA (dependencies)* since Tue Nov 17 — possible scan outage."
 */
function gapLine(g: DataGap): string {
  const when = g.ongoing
    ? `since ${formatDay(g.from)}`
    : g.from === g.to
      ? `on ${formatDay(g.from)}`
      : `from ${formatDay(g.from)} to ${formatDay(g.to)}`;
  return `No data from ${source(g)} ${when} — possible scan outage.`;
}

/** The notice section, or null when nothing is missing. */
export function gapNotice(view: DigestView): SectionBlock | null {
  const gaps = gapsOf(view);
  if (gaps.length === 0) return null;
  const lines = gaps.slice(0, SHOWN).map((g) => `:warning: ${gapLine(g)}`);
  if (gaps.length > SHOWN)
    lines.push(`…and ${formatCount(gaps.length - SHOWN)} more silent scanners or asset groups.`);
  const current = gaps.some((g) => g.current);
  const previous = gaps.some((g) => g.previous);
  if (current)
    lines.push("*This period is incomplete:* its totals miss whatever those scans would have found.");
  if (previous && !current)
    lines.push("*The comparison period is incomplete:* the change against it overstates the rise.");
  else if (previous) lines.push("The comparison period has silent days too.");
  return {
    type: "section",
    block_id: BLOCK.digestNotices,
    text: mrkdwn(lines.join("\n"), LIMITS.sectionText),
  };
}

/** "Sat Nov 21 so far (partial)" for the scope line, or null when the range has no partial day. */
export function partialNote(view: DigestView): string | null {
  const from = view.digest.completeness?.partialFrom;
  if (!from) return null;
  const to = view.digest.range.to;
  const days = from === to ? formatDay(from) : `${formatDay(from)} – ${formatDay(to)}`;
  return `${escapeMrkdwn(days)} so far (partial, not ranked as a full day)`;
}
