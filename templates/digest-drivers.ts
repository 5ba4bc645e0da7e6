import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, oneLine, plain, truncate, userText } from "../src/blockkit/text.ts";
import type {
  ActionsBlock,
  Block,
  ButtonElement,
  ContextBlock,
  RawTextCell,
  SectionBlock,
  TableBlock,
} from "../src/blockkit/types.ts";
import { BLOCK, GROUP_ACTION_PREFIX } from "../src/ids.ts";
import type { Breakdown, Contribution, Dimension, Drivers } from "../src/insights/drivers.ts";
import { directionMark } from "../src/insights/format.ts";
import type { Measure } from "../src/insights/period-totals.ts";
import type { DigestView } from "../src/insights/types.ts";
import { stateOf } from "./digest-controls.ts";
import { changeMark, formatCount, formatSigned } from "./format.ts";
import { encodeStateWithin, isCarriableGroup } from "./state.ts";

/**
 * The drivers section: which asset groups and scanners moved the numbers, e.g. "payments/* +31
 * violations, SAST +25; fixed most: web/*", one line per measure and dimension below it, and the
 * named asset groups as buttons that narrow the digest to that group.
 */

/** Names are cut to this inside the section; the buttons carry the full name. */
const NAME_MAX = 40;
/** Group buttons shown; named groups beyond these stay text. */
const MAX_GROUP_BUTTONS = 6;

const NOUN: Record<Measure, string> = { violations: "violations", findings: "findings", fixes: "fixes" };
const TITLE: Record<Measure, string> = { violations: "Violations", findings: "Findings", fixes: "Fixes" };
const BY: Record<Dimension, string> = { group: "by asset group", scanner: "by scanner" };

/** A breakdown tells something only when it has two slices or more (one slice is the total itself). */
const telling = (b: Breakdown) => b.slices > 1;

function part(c: Contribution, noun = ""): string {
  return `${userText(c.label, NAME_MAX)} ${formatSigned(c.change)}${noun ? ` ${noun}` : ""}${c.isNew ? " (new)" : ""}`;
}

/**
 * The one-line answer: the two biggest movers of violations (findings when violations did not
 * move) in the direction of the total, and who fixed most. Null when nothing named moved.
 *
 * @example driversHeadline(d) // "payments/* +31 violations, SAST +25; fixed most: web/*"
 */
export function driversHeadline(drivers: Drivers): string | null {
  const moved = (m: Measure) =>
    drivers.breakdowns.filter((b) => b.measure === m && telling(b) && b.up.length + b.down.length > 0);
  const measure: Measure = moved("violations").length > 0 ? "violations" : "findings";
  const list = moved(measure);
  const change = drivers.total[measure].current - drivers.total[measure].previous;
  const movers = list
    .flatMap((b) => (change >= 0 ? b.up : b.down))
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change))
    .slice(0, 2);
  const parts = movers.map((c, i) => (i === 0 ? part(c, NOUN[measure]) : part(c)));
  const fixers = moved("fixes")
    .sort((a, b) => (a.dimension === "group" ? -1 : 1) - (b.dimension === "group" ? -1 : 1))
    .flatMap((b) => b.up);
  const fixer = fixers[0];
  const tail = fixer ? `fixed most: ${userText(fixer.label, NAME_MAX)}` : null;
  if (parts.length === 0 && !tail) return null;
  return [parts.join(", "), tail].filter((x) => x !== null && x !== "").join("; ");
}

function breakdownLine(b: Breakdown): string {
  const items = [...b.up, ...b.down].map((c) => part(c));
  if (b.other && b.other.change !== 0) items.push(`other ${formatSigned(b.other.change)}`);
  return `    ${BY[b.dimension]}: ${items.length > 0 ? items.join(" · ") : "no change"}`;
}

function measureLines(drivers: Drivers, measure: Measure, incomplete: boolean): string[] {
  const list = drivers.breakdowns.filter((b) => b.measure === measure && telling(b));
  if (list.length === 0) return [];
  const { current, previous } = drivers.total[measure];
  const change = current - previous;
  const upIsGood = measure === "fixes";
  const direction = change > 0 ? "up" : change < 0 ? "down" : "flat";
  const sentiment = change === 0 ? "neutral" : change > 0 === upIsGood ? "good" : "bad";
  // As in the numbers: with silent scanners a drop may be the silence, so it gets no green.
  const doubtful = incomplete && sentiment === "good" && direction === "down";
  const mark = doubtful ? `:warning: ${directionMark({ direction })}` : changeMark({ direction, sentiment });
  const head = `*${TITLE[measure]}* ${mark} ${change === 0 ? "no change" : formatSigned(change)} (${formatCount(previous)} → ${formatCount(current)})`;
  return [head, ...list.map(breakdownLine)];
}

const MEASURES = ["violations", "findings", "fixes"] as const;

/** Every measure by asset group and by scanner, a line each, as the section (or the fallback) says it. */
function allLines(view: DigestView): string[] {
  const drivers = view.drivers?.drivers;
  if (!drivers) return [];
  const incomplete = view.drivers?.gaps.some((g) => g.current) ?? false;
  return MEASURES.flatMap((m) => measureLines(drivers, m, incomplete));
}

/** A cell of our own words or numbers. */
const raw = (text: string): RawTextCell => ({ type: "raw_text", text });
/** A cell of user data (a group or scanner name): one line, cut, never empty. */
const cell = (text: string): RawTextCell => raw(truncate(oneLine(text), 200) || "–");

const changeText = (c: { change: number; isNew: boolean }) =>
  `${c.change === 0 ? "0" : formatSigned(c.change)}${c.isNew ? " (new)" : ""}`;

/**
 * The breakdowns as a table Slack draws: a row per named asset group or scanner (and "other") of
 * every measure that moved, with this period, the previous one and the change. The section above
 * keeps the headline; the same rows in words go to the message's `text` for clients without tables.
 */
export function driversTable(view: DigestView): TableBlock | null {
  const drivers = view.drivers?.drivers;
  if (view.chartStyle !== "native" || !drivers) return null;
  const header = ["Breakdown", "Asset group or scanner", "Now", "Before", "Change"].map(raw);
  const rows: RawTextCell[][] = [];
  for (const measure of MEASURES)
    for (const b of drivers.breakdowns.filter((x) => x.measure === measure && telling(x))) {
      const by = `${TITLE[measure]} ${BY[b.dimension]}`;
      const named = [...b.up, ...b.down, ...(b.other && b.other.change !== 0 ? [b.other] : [])];
      for (const c of named)
        rows.push([
          raw(by),
          cell(c.label),
          raw(formatCount(c.current)),
          raw(formatCount(c.previous)),
          raw(changeText(c)),
        ]);
    }
  if (rows.length === 0) return null;
  return {
    type: "table",
    block_id: BLOCK.digestDriversTable,
    // The header row plus as many rows as Slack takes.
    rows: [header, ...rows.slice(0, LIMITS.tableRows - 1)],
    column_settings: [
      { is_wrapped: true },
      { is_wrapped: true },
      { align: "right" },
      { align: "right" },
      { align: "right" },
    ],
  };
}

/** The section: headline, then each measure by asset group and by scanner (or the table below it). */
export function driversSection(
  view: DigestView,
  lines = allLines(view),
  tabled = driversTable(view) !== null,
): SectionBlock | null {
  const drivers = view.drivers?.drivers;
  if (!drivers) return null;
  const headline = driversHeadline(drivers);
  const vs = `vs ${escapeMrkdwn(view.digest.range.previousLabel)}`;
  const body =
    lines.length === 0
      ? "_Nothing to break down: this digest covers a single asset group and scanner._"
      : [headline ?? "_No asset group or scanner moved._", ...(tabled ? [] : lines)].join("\n");
  return {
    type: "section",
    block_id: BLOCK.digestDrivers,
    text: mrkdwn(`*Why it changed* · ${vs}\n${body}`, LIMITS.sectionText),
  };
}

/** Budget notes under the section: asset groups and scanners left unnamed for the query budget. */
function driversContext(view: DigestView): ContextBlock | null {
  const d = view.drivers;
  if (view.driversUnavailable)
    return {
      type: "context",
      elements: [mrkdwn(`:grey_question: No breakdown this time: ${escapeMrkdwn(view.driversUnavailable)}`)],
    };
  if (!d) return null;
  const groups = d.unqueriedGroups;
  const scanners = d.unqueriedScanners ?? 0;
  const parts = [
    ...(groups > 0 ? [`${formatCount(groups)} smaller asset group${groups === 1 ? "" : "s"}`] : []),
    ...(scanners > 0 ? [`${formatCount(scanners)} scanner${scanners === 1 ? "" : "s"}`] : []),
  ];
  if (parts.length === 0) return null;
  const text = `${parts.join(" and ")} ${groups + scanners === 1 ? "is" : "are"} counted in "other" (query budget).`;
  return { type: "context", elements: [mrkdwn(text)] };
}

/** Buttons that narrow the digest to a named group, and one that widens it back when narrowed. */
function driverGroupButtons(view: DigestView): ActionsBlock | null {
  const groups = view.drivers?.groups ?? [];
  const state = stateOf(view);
  const current = new Set(state.assetGroups ?? []);
  const buttons: ButtonElement[] = [];
  for (const g of groups) {
    if (buttons.length >= MAX_GROUP_BUTTONS) break;
    // A name the state cannot carry (too long, control characters) would narrow to nothing.
    if (current.has(g.name) || !isCarriableGroup(g.name)) continue;
    const value = encodeStateWithin({ ...state, assetIds: [], assetGroups: [g.name] }, LIMITS.buttonValue);
    buttons.push({
      type: "button",
      action_id: `${GROUP_ACTION_PREFIX}${buttons.length}`,
      text: plain(g.label, LIMITS.buttonText),
      value,
    });
  }
  if (current.size > 0)
    buttons.push({
      type: "button",
      action_id: `${GROUP_ACTION_PREFIX}all`,
      text: plain("All asset groups", LIMITS.buttonText),
      value: encodeStateWithin({ ...state, assetGroups: [] }, LIMITS.buttonValue),
    });
  return buttons.length > 0
    ? { type: "actions", block_id: BLOCK.digestDriverGroups, elements: buttons }
    : null;
}

/**
 * Everything the drivers add to a digest: its blocks, in order (none when the digest has no
 * drivers), and, when a table carries the rows, the same rows in words for the message's `text`, so
 * a client that cannot draw the table still reads every row. Each part is computed once.
 */
export function driversParts(view: DigestView): { blocks: Block[]; fallback: string } {
  const table = driversTable(view);
  const lines = allLines(view);
  const blocks = [
    driversSection(view, lines, table !== null),
    table,
    driversContext(view),
    driverGroupButtons(view),
  ].filter((b): b is NonNullable<typeof b> => b !== null);
  const fallback = table && lines.length > 0 ? `\n${lines.map((l) => l.trim()).join("\n")}` : "";
  return { blocks, fallback };
}
