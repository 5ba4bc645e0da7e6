import { expect, it } from "vitest";
import { readQuestion } from "../../../src/ask/read.ts";
import type { Example, Reads, Rule } from "../../../src/ask/rules/rule.ts";
import type { AskReading, AskSchedule } from "../../../src/ask/types.ts";
import { understoodText } from "../../../src/ask/understood.ts";
import type { MonthDay } from "../../../src/subscriptions/types.ts";
import { CORPUS_CONTEXT, CORPUS_TZ } from "../../fixtures/ask-corpus.ts";

/**
 * Runs a rule's examples through the whole reader, at the corpora's clock and account (Wednesday
 * 2026-11-18 16:00, Berlin, the demo account): each example is a test of the rule it documents, and
 * fails when another rule takes its words first.
 */

const span = (r: { from: string; to: string }) => (r.from === r.to ? r.from : `${r.from}..${r.to}`);

/** A schedule in the corpora's terms: `weekly mon 09:00`, `weekdays 08:00`, `monthly first mon 09:00`. */
export function scheduleCode(s: AskSchedule): string {
  switch (s.frequency) {
    case "hourly":
      return "hourly";
    case "daily":
      return `daily ${s.time}`;
    case "weekly":
      return `weekly ${s.days.join(",")} ${s.time}`;
    case "weekdays":
      return `weekdays ${s.time}`;
    default:
      return `${s.frequency} ${s.on ? monthDayCode(s.on) : "1"} ${s.time}`;
  }
}

const NTH = { 1: "first", 2: "second", 3: "third", 4: "fourth", last: "last" } as const;

/** A month day as the corpora write it: `1`, `first mon`, `lastworkday`. */
export function monthDayCode(on: MonthDay): string {
  if (on.kind === "day") return String(on.day);
  if (on.kind === "workday") return `${on.which}workday`;
  return `${NTH[on.nth]} ${on.weekday}`;
}

/** The fields of `r` an example states, in its terms. */
function observed(r: AskReading, want: Reads): Reads {
  const got: Reads = {};
  if (want.intent !== undefined) got.intent = r.intent;
  if (want.range !== undefined)
    got.range = want.range === r.range.spec || want.range === span(r.range) ? want.range : r.range.spec;
  if (want.vs !== undefined) got.vs = r.comparison ? span(r.comparison) : "";
  if (want.metrics !== undefined) got.metrics = r.metrics;
  if (want.assets !== undefined) got.assets = r.subjects.assets.map((a) => a.displayValue).sort();
  if (want.groups !== undefined) got.groups = [...r.subjects.groups].sort();
  if (want.scanners !== undefined) got.scanners = r.subjects.scanners.map((s) => s.value).sort();
  if (want.schedule !== undefined) got.schedule = r.schedule ? scheduleCode(r.schedule) : "";
  if (want.condition !== undefined) got.condition = r.condition ?? "";
  if (want.problem !== undefined) got.problem = r.problem?.kind ?? ("none" as never);
  if (want.readAs !== undefined) got.readAs = (r.readAs ?? []).map((x) => x.typed);
  return got;
}

function sortedWant(want: Reads): Reads {
  const w = { ...want };
  if (w.assets) w.assets = [...w.assets].sort();
  if (w.groups) w.groups = [...w.groups].sort();
  if (w.scanners) w.scanners = [...w.scanners].sort();
  return w;
}

/** One test per example: the reading holds what the example says (and no problem unless one is said). */
export function itReadsExamples(examples: readonly Example[]): void {
  it.each(examples.map((e) => [e.q, e] as const))("%s", (_q, e) => {
    const r = readQuestion(e.q, CORPUS_CONTEXT);
    const want = sortedWant(e.reads);
    if (want.problem === undefined)
      expect(r.problem, `${e.q} → ${understoodText(r, CORPUS_TZ)}`).toBeUndefined();
    expect(observed(r, want)).toEqual(want);
  });
}

/** Every rule of a table has examples, and they are read as they say. */
export function itReadsRules(rules: readonly Rule<{ len: number }>[]): void {
  it.each(rules.map((r) => [r.name, r] as const))("%s has examples", (_name, rule) => {
    expect(rule.examples.length).toBeGreaterThan(0);
  });
  itReadsExamples(rules.flatMap((r) => r.examples));
}
