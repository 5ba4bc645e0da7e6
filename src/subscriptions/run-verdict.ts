import type { DigestView } from "../insights/types.ts";
import {
  type Condition,
  evaluate,
  incomplete,
  parseCondition,
  type Verdict,
  valuesOf,
} from "./conditions.ts";
import { historyField, nextHistory } from "./run-state.ts";
import type { Subscription } from "./types.ts";

/**
 * Whether a run of a digest subscription posts, decided from its condition and the values earlier
 * runs kept. Pure: the digest is built, the worker acts on the answer.
 */

export interface RunVerdict {
  post: boolean;
  verdict?: Verdict;
  /** The history field to store (`hv`), when this run adds a value. */
  history?: string;
  /** The view to post, its footer saying why it was posted. */
  view: DigestView;
}

/** The condition of a subscription, or null (none; or a stored text that no longer parses). */
export function conditionOf(sub: Pick<Subscription, "condition">): Condition | null {
  if (!sub.condition) return null;
  try {
    return parseCondition(sub.condition);
  } catch {
    return null;
  }
}

/**
 * The verdict for one run. A test send always posts and says how its condition stands; a scheduled
 * run posts only when the condition is met (incomplete data counts as met: a gap is never "no
 * change"). A `rising` condition adds the run's value to the history when the data is complete.
 */
export function judgeRun(
  sub: Pick<Subscription, "condition" | "runs">,
  view: DigestView,
  period: string,
  isTest: boolean,
): RunVerdict {
  const condition = conditionOf(sub);
  if (!condition) return { post: true, view };
  // The drivers' silences of single scanners and groups are data gaps for the day judged too.
  const weekday = view.weekday && { ...view.weekday, sliceGaps: view.drivers?.gaps ?? [] };
  const verdict = evaluate(condition, view.digest, sub.runs?.history?.values ?? [], weekday);
  const out: RunVerdict = { post: verdict.met || isTest, verdict, view };
  if (condition.kind === "rising" && !isTest && !incomplete(view.digest)) {
    const next = nextHistory(sub, period, valuesOf(view.digest, condition.metric).current, condition.periods);
    const field = next ? historyField(next) : null;
    if (field) out.history = field;
  }
  const note = isTest
    ? `sent now; condition ${verdict.met ? "met" : "not met"}: ${verdict.reason}`
    : `posted because ${verdict.reason}`;
  out.view = { ...view, attribution: [view.attribution, note].filter(Boolean).join(" · ") };
  return out;
}
