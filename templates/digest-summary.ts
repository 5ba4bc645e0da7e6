import type { FilterOption } from "../src/analytics/types.ts";
import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, plain, truncate, userText } from "../src/blockkit/text.ts";
import type { Block, ContextBlock, SectionBlock } from "../src/blockkit/types.ts";
import { BLOCK } from "../src/ids.ts";
import { directionMark } from "../src/insights/format.ts";
import type { Delta, Digest, FilterState, SeriesCheck } from "../src/insights/types.ts";
import { changeMark, formatCount, formatDay, formatPct, formatRate, formatSigned } from "./format.ts";

/** The reading part of the digest: header, what is compared, the numbers, the trend and any data warning. */

/** Names shown per filter before "+N more"; each name is cut to keep the line short. */
const NAMES_SHOWN = 3;
const NAME_MAX = 60;

export function headerBlock(digest: Digest): Block {
  return {
    type: "header",
    block_id: BLOCK.digestHeader,
    text: plain(`Insights · ${digest.range.label}`, LIMITS.headerText),
  };
}

function filterNames(
  label: string,
  all: FilterOption[] | null,
  selected: string[],
  groups: string[] = [],
): string {
  if (selected.length === 0 && groups.length === 0) return `All ${label}`;
  const byId = new Map((all ?? []).map((o) => [o.value, o.displayValue]));
  const chosen = [...groups.map((g) => `${g}/*`), ...selected.map((id) => byId.get(id) || id)];
  const names = chosen.slice(0, NAMES_SHOWN).map((name) => userText(name, NAME_MAX));
  const more = chosen.length - names.length;
  return `${label[0]?.toUpperCase()}${label.slice(1)}: ${names.join(", ")}${more > 0 ? ` +${formatCount(more)} more` : ""}`;
}

/** "Compared with …", the active filters by name, and a partial last day when there is one. */
export function scopeBlock(
  digest: Digest,
  filters: FilterState,
  partial: string | null = null,
): ContextBlock {
  const parts = [
    `Compared with ${escapeMrkdwn(digest.range.previousLabel)}`,
    filterNames("assets", filters.assets, filters.selectedAssetIds, filters.selectedGroups),
    filterNames("scanners", filters.scanners, filters.selectedScannerIds),
    ...(partial ? [partial] : []),
  ];
  return { type: "context", elements: [mrkdwn(parts.join(" · "), LIMITS.contextText)] };
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Why the daily figures cannot be taken at face value, or null when they can. */
export function seriesWarning(check: SeriesCheck): SectionBlock | null {
  if (check.ok) return null;
  const notes: string[] = [];
  const missing = check.missingDays.length;
  if (missing > 0) {
    const days = check.missingDays.slice(0, 5).map(formatDay).join(", ");
    notes.push(
      `${plural(missing, "day", "days")} missing from the service's reply (${escapeMrkdwn(days)}${missing > 5 ? ", …" : ""}): shown as gaps`,
    );
  }
  if (check.droppedEntries > 0)
    notes.push(`${plural(check.droppedEntries, "entry", "entries")} outside the range or repeated: left out`);
  if (check.badTimeStamps > 0)
    notes.push(`${plural(check.badTimeStamps, "entry", "entries")} with an unreadable date: left out`);
  if (check.unsorted) notes.push("days arrived out of order: sorted");
  if (notes.length === 0) notes.push("the daily figures did not match the range");
  return { type: "section", text: mrkdwn(`:warning: *Check the daily figures:* ${notes.join("; ")}.`) };
}

function deltaField(title: string, d: Delta, incomplete: boolean): string {
  const change = d.isNew
    ? "new"
    : d.change === 0
      ? "no change"
      : `${formatSigned(d.change)} (${escapeMrkdwn(formatPct(d))})`;
  // A drop in a period with silent scanners may be the silence, not good news: no green for it.
  const doubtful = incomplete && d.sentiment === "good";
  const mark = doubtful ? `:warning: ${directionMark(d)}` : changeMark(d);
  const tail = doubtful ? " · _period incomplete_" : "";
  return `*${title}*\n*${formatCount(d.current)}*  ${mark} ${change}\n_vs ${formatCount(d.previous)} before_${tail}`;
}

function netField(net: number): string {
  if (net === 0) return "*Net change*\n0 · backlog unchanged";
  const mark = changeMark({ direction: net > 0 ? "up" : "down", sentiment: net > 0 ? "bad" : "good" });
  return `*Net change*\n${mark} ${formatSigned(net)} · backlog ${net > 0 ? "grew" : "shrank"}`;
}

/**
 * Findings and violations against the previous period, then fixes, merged, fix rate and net change.
 * `incomplete`: the current period has silent scanners or groups, so a drop is not shown as good news.
 */
export function numbersBlock(digest: Digest, incomplete = false): SectionBlock {
  const fields = [
    deltaField("Findings", digest.findings, incomplete),
    deltaField("Violations", digest.violations, incomplete),
    `*Fixes*\n${formatCount(digest.fixes)}`,
    `*Merged violations*\n${formatCount(digest.mergedViolations)}`,
    `*Fix rate*\n${formatRate(digest.fixRate)}`,
    netField(digest.netChange),
  ];
  return { type: "section", fields: fields.map((f) => mrkdwn(f, LIMITS.sectionFieldText)) };
}

/** Text sparkline of violations per day, with the peak and the quietest day. */
export function trendBlock(digest: Digest): SectionBlock {
  const { sparkline, peak, quietest } = digest.trend;
  const line =
    sparkline.trim() === ""
      ? "_No daily figures in this range._"
      : `\`${escapeMrkdwn(truncate(sparkline, 400))}\``;
  const days = [
    peak ? `Peak ${formatDay(peak.day)} (${formatCount(peak.value)})` : null,
    quietest ? `Quietest ${formatDay(quietest.day)} (${formatCount(quietest.value)})` : null,
  ].filter((x) => x !== null);
  const tail = days.length > 0 ? `\n${escapeMrkdwn(days.join(" · "))}` : "";
  return { type: "section", text: mrkdwn(`*Daily trend* · violations per day\n${line}${tail}`) };
}
