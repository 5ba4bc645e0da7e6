import type { FilterOption } from "../analytics/types.ts";
import { groupAssets } from "../insights/asset-groups.ts";
import { readQuestion } from "./read.ts";
import type { AskContext } from "./types.ts";

/**
 * Questions offered to people: the suggested prompts when they open the app's Messages tab, and
 * the examples an unreadable question is answered with. They name the account's own largest asset
 * groups and its scanners, and each is checked against the reader before it is offered, so a
 * suggestion always reads as it says (an odd name is simply left out).
 */

export interface Prompt {
  /** What the button shows. */
  title: string;
  /** What is sent as the person's message when they press it. */
  message: string;
}

/** Slack shows up to four suggested prompts. */
export const MAX_PROMPTS = 4;
const MAX_TITLE = 75;
const MAX_MESSAGE = 200;

/** Names that read back as themselves: plain words, not too long. */
function usable(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/.test(name);
}

function largestGroups(assets: readonly FilterOption[]): string[] {
  return groupAssets(assets)
    .filter((g) => g.label.endsWith("/*"))
    .map((g) => g.name)
    .filter(usable);
}

function firstScanners(scanners: readonly FilterOption[]): FilterOption[] {
  return scanners.filter((s) => usable(s.displayValue) || usable(s.value));
}

interface Candidate extends Prompt {
  /** What the reader must find in it: intent and, when named, the group or scanner. */
  intent: string;
  group?: string;
  scanner?: string;
}

function candidates(assets: readonly FilterOption[], scanners: readonly FilterOption[]): Candidate[] {
  const groups = largestGroups(assets);
  const scanner = firstScanners(scanners)[0];
  const scannerName = scanner
    ? usable(scanner.displayValue)
      ? scanner.displayValue
      : scanner.value
    : undefined;
  const [g1, g2] = groups;
  const list: Candidate[] = [
    { title: "How are we doing?", message: "How are we doing this week?", intent: "digest" },
  ];
  if (g1)
    list.push({
      title: `Why did ${g1} change?`,
      message: `Why did violations change in ${g1} last week?`,
      intent: "drivers",
      group: g1,
    });
  else
    list.push({ title: "What changed?", message: "Why did violations change last week?", intent: "drivers" });
  if (scanner && scannerName)
    list.push({
      title: `${scannerName} trend`,
      message: `Show the trend of ${scannerName} findings over the last 30 days`,
      intent: "trend",
      scanner: scanner.value,
    });
  else list.push({ title: "30-day trend", message: "Show the trend over the last 30 days", intent: "trend" });
  const g = g2 ?? g1;
  if (g)
    list.push({
      title: `${g}: this month vs last`,
      message: `Violations in ${g} this month compared with last month`,
      intent: "digest",
      group: g,
    });
  else
    list.push({
      title: "This month vs last",
      message: "Violations this month compared with last month",
      intent: "digest",
    });
  list.push({ title: "Alert me", message: "Tell me when violations go above 500", intent: "alert" });
  list.push({ title: "Weekly digest", message: "Send me this every Monday at 9", intent: "subscribe" });
  list.push({ title: "Export", message: "Export last month as CSV", intent: "export" });
  return list;
}

/** Whether the reader reads a candidate as it is offered. */
function readsAsSaid(c: Candidate, ctx: AskContext): boolean {
  if (c.title.length > MAX_TITLE || c.message.length > MAX_MESSAGE) return false;
  const r = readQuestion(c.message, ctx);
  if (r.problem || r.intent !== c.intent) return false;
  if (c.group && !(r.subjects.groups.length === 1 && r.subjects.groups[0] === c.group)) return false;
  if (c.scanner && !(r.subjects.scanners.length === 1 && r.subjects.scanners[0]?.value === c.scanner))
    return false;
  return true;
}

/**
 * Up to four prompts for the Messages tab, from the account's names (its largest asset groups and
 * a scanner); generic ones when the lists are not at hand.
 */
export function suggestedPrompts(ctx: AskContext): Prompt[] {
  return candidates(ctx.assets, ctx.scanners)
    .filter((c) => readsAsSaid(c, ctx))
    .slice(0, MAX_PROMPTS)
    .map(({ title, message }) => ({ title, message }));
}

/** Example questions for an answer that could not be given: the prompts and the rest. */
export function exampleQuestions(ctx: AskContext): string[] {
  return candidates(ctx.assets, ctx.scanners)
    .filter((c) => readsAsSaid(c, ctx))
    .map((c) => c.message);
}
