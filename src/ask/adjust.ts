import { z } from "zod";
import { AppError } from "../errors.ts";
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

/** What an Adjust button carries: the fields, compactly. Read back as untrusted input. */
const wire = z.object({
  w: z.enum(["digest", "drivers", "trend", "export"]),
  m: z.array(z.enum(["findings", "violations", "fixes", "fixRate", "merged"])).max(5),
  p: z.string().max(100),
  c: z.string().max(100),
  a: z.string().max(1200),
  s: z.string().max(400),
});

/** Button values hold 2,000 characters; names that do not fit are left for the person to type. */
const MAX_VALUE = 2_000;

export function encodeAdjust(f: AdjustFields): string {
  const value = { w: f.what, m: f.metrics, p: f.period, c: f.compare, a: f.assets, s: f.scanners };
  const text = JSON.stringify(value);
  if (text.length <= MAX_VALUE) return text;
  return JSON.stringify({ ...value, a: "", s: "" });
}

export function decodeAdjust(raw: unknown): AdjustFields {
  if (typeof raw !== "string" || raw.length > MAX_VALUE * 2)
    throw new AppError("bad_state", "This button carries no question to adjust.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw new AppError("bad_state", "This button carries no question to adjust.", { cause });
  }
  const v = wire.safeParse(parsed);
  if (!v.success) throw new AppError("bad_state", "This button carries a question that is not valid.");
  return {
    what: v.data.w,
    metrics: v.data.m,
    period: v.data.p,
    compare: v.data.c,
    assets: v.data.a,
    scanners: v.data.s,
  };
}
