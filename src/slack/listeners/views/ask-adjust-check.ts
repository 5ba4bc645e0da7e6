import { ADJUST_FIELD_CHARS } from "../../../../templates/ask-adjust-modal.ts";
import { type AdjustFields, overLimit } from "../../../ask/adjust.ts";
import { readQuestion } from "../../../ask/read.ts";
import type { AskMetric } from "../../../ask/types.ts";
import { ASK_FIELD as F } from "../../../ids.ts";
import type { ViewContext, ViewResult } from "../../frame/index.ts";

type Values = Record<
  string,
  Record<
    string,
    { value?: string | null; selected_option?: { value?: string }; selected_options?: { value?: string }[] }
  >
>;

const WHAT = new Set(["digest", "drivers", "trend", "export"]);
const METRICS = new Set(["findings", "violations", "fixes", "fixRate", "merged"]);

export function fieldsOf(ctx: ViewContext): AdjustFields {
  const v = (ctx.view.state?.values ?? {}) as Values;
  // Whole: Slack holds each field to its max_length, and a longer (forged) one is refused by checkAdjust.
  const text = (id: string) => v[id]?.[id]?.value ?? "";
  const what = v[F.what]?.[F.what]?.selected_option?.value ?? "digest";
  const metrics = (v[F.metrics]?.[F.metrics]?.selected_options ?? [])
    .map((o) => o.value ?? "")
    .filter((m) => METRICS.has(m)) as AskMetric[];
  return {
    what: (WHAT.has(what) ? what : "digest") as AdjustFields["what"],
    metrics,
    period: text(F.period),
    compare: text(F.compare),
    assets: text(F.assets),
    scanners: text(F.scanners),
  };
}

export function whereOf(ctx: ViewContext): { channelId: string; threadTs: string } | null {
  try {
    const m = JSON.parse(ctx.view.private_metadata || "{}") as { c?: unknown; t?: unknown };
    return typeof m.c === "string" && typeof m.t === "string" ? { channelId: m.c, threadTs: m.t } : null;
  } catch {
    return null;
  }
}

/** What is wrong with a period the way a question would say it, or nothing. */
function periodProblem(words: string, now: Date, tz: string): string | undefined {
  const r = readQuestion(words, { now, tz, assets: [], scanners: [] });
  const p = r.problem;
  if (!p) return r.rangeSaid || r.comparison ? undefined : `“${words}” is not a period I can read.`;
  if (p.kind === "bad_range") return p.message;
  // Any other problem (words it could not place, a wish to stop something, a schedule) means the
  // field holds no period: refused, never taken as the default one.
  return `I can't read “${p.kind === "unread" ? p.words.join(" ") : words}” as a period: try last month, Q3 or 2026-10-01..2026-10-31.`;
}

/**
 * What the Adjust modal's submission is answered with, on the acking event loop: the period and
 * comparison read here (pure, instantly) and shown inline when unreadable; nothing is computed.
 * Its own module, so the check that nothing on the acking loop builds a digest can see it apart
 * from the work that follows (ask-adjust-submit.ts).
 */
export async function checkAdjust(ctx: ViewContext): Promise<ViewResult> {
  const f = fieldsOf(ctx);
  if (!whereOf(ctx))
    return { errors: { [F.period]: "This form lost its conversation; ask again in the app's DM." } };
  const { tz } = await ctx.user();
  const now = ctx.deps.clock();
  const errors: Record<string, string> = {};
  const over = overLimit(f);
  if (over)
    return {
      errors: {
        [F[over]]: `This field holds ${ADJUST_FIELD_CHARS[over].toLocaleString("en-US")} characters at most.`,
      },
    };
  const period = periodProblem(f.period, now, tz);
  if (period) errors[F.period] = period;
  if (f.compare.trim()) {
    const compare = periodProblem(`${f.period} compared with ${f.compare}`, now, tz);
    if (compare && !period) errors[F.compare] = compare;
  }
  return Object.keys(errors).length > 0 ? { errors } : {};
}
