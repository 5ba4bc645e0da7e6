import type { FilterOption } from "../../analytics/types.ts";
import type { Sentence } from "../sentence.ts";
import { describe, subjectAt } from "../subjects.ts";
import type { Found, Pass } from "./found.ts";
import type { Example, RuleContext } from "./rule.ts";
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

/**
 * Assets, groups and scanners as people name them: whole, by a word, by a slip, or in a short form
 * derived from the account's own names and ids (short-names.ts). A short form or a slip is a guess
 * the understood line says; a short form that could stand for two names, or that is a common word,
 * is not taken.
 */
export const NAME_EXAMPLES: readonly Example[] = [
  { q: "violations in payments api last week", reads: { assets: ["payments / api"], range: "lastweek" } },
  { q: "findings in fe last week", reads: { assets: ["payments / fraud-engine"], readAs: ["fe"] } },
  { q: "violations in pfe", reads: { assets: ["payments / fraud-engine"] } },
  { q: "fraud eng violations", reads: { assets: ["payments / fraud-engine"] } },
  { q: "tf findings this month", reads: { assets: ["infra / terraform-live"], range: "thismonth" } },
  { q: "violations in kubernetes manifests", reads: { assets: ["infra / k8s-manifests"] } },
  { q: "findings in o11y", reads: { assets: ["platform / observability"] } },
  { q: "container imgs findings", reads: { scanners: ["container"] } },
  { q: "deps findings this month", reads: { scanners: ["sca"] } },
  { q: "plat violations", reads: { groups: ["platform"] } },
  { q: "violations for 3a5d6219-6694-4f31-8276-95ab7e7e9f40", reads: { assets: ["payments / api"] } },
  { q: "violations in asset 3a5d6219", reads: { assets: ["payments / api"] } },
  // Not short forms: a common word, a part of a hyphenated word, a form that fits two names.
  { q: "is payments not doing well", reads: { problem: "unread" } },
  { q: "findings per sub-group last week", reads: { problem: "unread" } },
  { q: "findings in gw", reads: { problem: "unread" } },
  { q: "qa violations", reads: { problem: "unread" } },
  { q: "how is eng doing", reads: { problem: "unread" } },
  // Initials of one name and the start of another's word (data / etl-pipeline, "dependencies"): only
  // a word after it that says "scanner" takes one; else the person is asked which.
  { q: "dep violations in payments", reads: { problem: "ambiguous" } },
  { q: "dep scanner findings last week", reads: { scanners: ["sca"], readAs: ["dep"] } },
];

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
