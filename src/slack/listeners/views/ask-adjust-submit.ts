import { type AdjustFields, composeQuestion } from "../../../ask/adjust.ts";
import { readQuestion } from "../../../ask/read.ts";
import type { AskMetric } from "../../../ask/types.ts";
import { CALLBACK, ASK_FIELD as F } from "../../../ids.ts";
import { answerInThread } from "../../ask.ts";
import { onView, type ViewContext } from "../../frame/index.ts";

type Values = Record<
  string,
  Record<
    string,
    { value?: string | null; selected_option?: { value?: string }; selected_options?: { value?: string }[] }
  >
>;

const WHAT = new Set(["digest", "drivers", "trend", "export"]);
const METRICS = new Set(["findings", "violations", "fixes", "fixRate", "merged"]);

function fieldsOf(ctx: ViewContext): AdjustFields {
  const v = (ctx.view.state?.values ?? {}) as Values;
  const text = (id: string) => (v[id]?.[id]?.value ?? "").slice(0, 300);
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

function whereOf(ctx: ViewContext): { channelId: string; threadTs: string } | null {
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
  if (p.kind === "unread")
    return `I can't read “${p.words.join(" ")}” as a period: try last month, Q3 or 2026-10-01..2026-10-31.`;
  return undefined;
}

/**
 * The Adjust modal's submission: the period and comparison are checked here (pure, instantly) and
 * shown inline when unreadable; the new answer, digest work, follows in the conversation's thread.
 */
export const askAdjustSubmit = onView({
  id: CALLBACK.askAdjust,
  access: "reader",
  errorBlock: F.period,
  async run(ctx) {
    const f = fieldsOf(ctx);
    if (!whereOf(ctx))
      return {
        answer: {
          response_action: "errors",
          errors: { [F.period]: "This form lost its conversation; ask again in the app's DM." },
        },
      };
    const { tz } = await ctx.user();
    const now = ctx.deps.clock();
    const errors: Record<string, string> = {};
    const period = periodProblem(f.period, now, tz);
    if (period) errors[F.period] = period;
    if (f.compare.trim()) {
      const compare = periodProblem(`${f.period} compared with ${f.compare}`, now, tz);
      if (compare && !period) errors[F.compare] = compare;
    }
    return Object.keys(errors).length > 0 ? { answer: { response_action: "errors", errors } } : {};
  },
  async work(ctx) {
    const where = whereOf(ctx);
    if (where) await answerInThread(ctx, composeQuestion(fieldsOf(ctx)), where);
  },
});
