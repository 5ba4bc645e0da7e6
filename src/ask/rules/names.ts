import type { FilterOption } from "../../analytics/types.ts";
import type { Sentence } from "../sentence.ts";
import { describe, subjectAt } from "../subjects.ts";
import type { Found, Pass } from "./found.ts";
import type { RuleContext } from "./rule.ts";
import { scan } from "./rule.ts";

function pushUnique(list: string[], v: string) {
  if (!list.includes(v)) list.push(v);
}

function pushOption(list: FilterOption[], v: FilterOption) {
  if (!list.some((o) => o.value === v.value)) list.push(v);
}

/** Claims the names of `min` words or more, into the subjects found. */
function readNames(s: Sentence, found: Found, ctx: RuleContext, min: number): void {
  const subjects = found.subjects;
  scan(s, (i) => {
    const hit = subjectAt(s, i, ctx.names, min);
    if (!hit) return 0;
    if (hit.kind === "ambiguous") {
      found.problems.push({ kind: "ambiguous", typed: hit.typed, suggestions: hit.suggestions });
      return hit.len;
    }
    if (hit.loose) found.readAs.push({ typed: s.typed.slice(i, i + hit.len).join(" "), as: describe(hit) });
    if (hit.kind === "group") pushUnique(subjects.groups, hit.name);
    else if (hit.kind === "asset") pushOption(subjects.assets, hit.option);
    else pushOption(subjects.scanners, hit.option);
    return hit.len;
  });
}

export const longNamePass: Pass = {
  name: "names of several words",
  why: "before metrics and intents: 'helm charts' and 'status page' are names before 'charts' is a chart",
  run: (s, found, ctx) => readNames(s, found, ctx, 2),
};

export const namePass: Pass = {
  name: "names",
  why: "after metrics and intents: a word such as 'api' or 'data' is a name only when nothing else reads it",
  run: (s, found, ctx) => readNames(s, found, ctx, 1),
};
