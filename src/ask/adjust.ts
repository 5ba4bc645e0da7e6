import { z } from "zod";
import { ADJUST_FIELD_CHARS, type AdjustTextField } from "../../templates/ask-adjust-modal.ts";
import { LIMITS } from "../blockkit/limits.ts";
import { AppError } from "../errors.ts";
import { keptIdOf } from "./kept.ts";
import type { AskMetric, AskReading } from "./types.ts";

/**
 * The Adjust modal's fields: a reading laid out for editing (what, metrics, period, comparison,
 * names), and back into words the reader reads. Both directions are pure, and the round trip is
 * tested: a reading put in the modal and submitted unchanged is read as the same reading.
 */

export type AdjustWhat = "digest" | "drivers" | "trend" | "export";

export interface AdjustFields {
  what: AdjustWhat;
  metrics: AskMetric[];
  /** The period in words or in the slash command's form (`lastweek`, `2026-10-01..2026-10-31`). */
  period: string;
  /** The period to compare with, same forms; "" = the period just before. */
  compare: string;
  /** Asset groups (`payments/*`) and asset names, one per line or comma-separated. */
  assets: string;
  /** Scanner ids or names, likewise. */
  scanners: string;
}

const WHAT_WORDS: Record<AdjustWhat, string> = {
  digest: "",
  drivers: "why",
  trend: "trend",
  export: "export",
};
const METRIC_WORDS: Record<AskMetric, string> = {
  findings: "findings",
  violations: "violations",
  fixes: "fixes",
  fixRate: "fix rate",
  merged: "merged violations",
};

const span = (r: { from: string; to: string }) => (r.from === r.to ? r.from : `${r.from}..${r.to}`);

/** The fields a reading fills in (only readings the modal can show: not schedules or alerts). */
export function fieldsOf(r: AskReading): AdjustFields {
  const what: AdjustWhat =
    r.intent === "drivers" || r.intent === "trend" || r.intent === "export" ? r.intent : "digest";
  return {
    what,
    metrics: r.metrics,
    period: r.range.spec,
    compare: r.comparison && r.comparison.how !== "previous" ? span(r.comparison) : "",
    assets: [...r.subjects.groups.map((g) => `${g}/*`), ...r.subjects.assets.map((a) => a.displayValue)].join(
      ", ",
    ),
    scanners: r.subjects.scanners.map((s) => s.value).join(", "),
  };
}

const names = (list: string) =>
  list
    .split(/[\n,]+/)
    .map((n) => n.trim())
    .filter(Boolean);

/**
 * The question the fields say, for the reader: `why violations for payments/* scanner sast
 * 2026-10-01..2026-10-31 compared with 2026-09-01..2026-09-30`.
 */
export function composeQuestion(f: AdjustFields): string {
  const parts = [
    WHAT_WORDS[f.what],
    ...f.metrics.map((m) => METRIC_WORDS[m]),
    names(f.assets).join(" and "),
    names(f.scanners).join(" and "),
    f.period.trim(),
    f.compare.trim() ? `compared with ${f.compare.trim()}` : "",
  ];
  return parts.filter(Boolean).join(" ");
}

/** The first text field longer than the form holds, if any. */
export function overLimit(f: AdjustFields): AdjustTextField | undefined {
  return (Object.keys(ADJUST_FIELD_CHARS) as AdjustTextField[]).find(
    (k) => f[k].length > ADJUST_FIELD_CHARS[k],
  );
}

/** What an Adjust button carries (or a kept draft holds): the fields, compactly. Read back as untrusted input. */
const wire = z.object({
  w: z.enum(["digest", "drivers", "trend", "export"]),
  m: z.array(z.enum(["findings", "violations", "fixes", "fixRate", "merged"])).max(5),
  p: z.string().max(ADJUST_FIELD_CHARS.period),
  c: z.string().max(ADJUST_FIELD_CHARS.compare),
  a: z.string().max(ADJUST_FIELD_CHARS.assets),
  s: z.string().max(ADJUST_FIELD_CHARS.scanners),
});

/**
 * The fields as a button's value, or, when they do not fit one (Slack holds 2,000 characters),
 * as the text to keep in a draft, whose id the button then carries (see kept.ts).
 */
export function encodeAdjust(f: AdjustFields): { value: string } | { keep: string } {
  const text = JSON.stringify({
    w: f.what,
    m: f.metrics,
    p: f.period,
    c: f.compare,
    a: f.assets,
    s: f.scanners,
  });
  return text.length <= LIMITS.buttonValue ? { value: text } : { keep: text };
}

/** What an Adjust button carried: the fields, or the id of the draft that keeps them. */
export type AdjustCarried = { kind: "fields"; fields: AdjustFields } | { kind: "kept"; id: string };

const notValid = () => new AppError("bad_state", "This button carries a question that is not valid.");

function parse(raw: unknown, max: number): unknown {
  if (typeof raw !== "string" || raw.length > max)
    throw new AppError("bad_state", "This button carries no question to adjust.");
  try {
    return JSON.parse(raw);
  } catch (cause) {
    throw new AppError("bad_state", "This button carries no question to adjust.", { cause });
  }
}

function fieldsFrom(parsed: unknown): AdjustFields {
  const v = wire.safeParse(parsed);
  if (!v.success) throw notValid();
  return {
    what: v.data.w,
    metrics: v.data.m,
    period: v.data.p,
    compare: v.data.c,
    assets: v.data.a,
    scanners: v.data.s,
  };
}

export function decodeAdjust(raw: unknown): AdjustCarried {
  const parsed = parse(raw, LIMITS.buttonValue);
  const id = keptIdOf(parsed);
  return id ? { kind: "kept", id } : { kind: "fields", fields: fieldsFrom(parsed) };
}

/** The fields a kept draft holds (as untrusted as a button's value). */
export function keptAdjust(text: string): AdjustFields {
  return fieldsFrom(parse(text, 4 * LIMITS.inputLength));
}
