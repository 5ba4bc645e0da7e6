import { escapeMrkdwn, userText } from "../src/blockkit/text.ts";
import { csvAbout } from "../src/insights/csv.ts";
import type { DigestView } from "../src/insights/types.ts";
import { formatCount } from "./format.ts";

/** Filter names listed in the message before "+N more" (the file name lists them too), each cut. */
const NAMES_SHOWN = 10;
const NAME_MAX = 75;

function names(list: string[]): string {
  if (list.length === 0) return "all";
  const shown = list.slice(0, NAMES_SHOWN).map((n) => userText(n, NAME_MAX));
  const more = list.length - shown.length;
  return `${shown.join("; ")}${more > 0 ? ` +${formatCount(more)} more` : ""}`;
}

/**
 * The message a CSV export arrives with (the upload's `initial_comment`): what the file holds — its
 * range, the comparison, the totals, the filters and when it was generated — since the file itself
 * starts with its header row.
 */
export function exportComment(view: DigestView, userId: string): string {
  const days = view.digest.series.length;
  const about = csvAbout(view);
  const lines = about.facts.map(({ label, value }) => {
    const shown =
      label === "Assets"
        ? names(about.assets)
        : label === "Scanners"
          ? names(about.scanners)
          : escapeMrkdwn(value);
    return `*${label}:* ${shown}`;
  });
  return [
    `:page_facing_up: Daily findings, violations, fixes and merged violations, ${escapeMrkdwn(view.digest.range.label)} (${days} day${days === 1 ? "" : "s"}), exported by <@${userId}>.`,
    ...lines,
  ].join("\n");
}
