import { DIGEST_CUES, FILLERS } from "../vocabulary.ts";
import type { Pass } from "./found.ts";
import type { Example } from "./rule.ts";

/**
 * Things the digest counts nothing of, though they are words passed over elsewhere ("payments
 * repo", "the data team"): asked to count them ("how many repos"), the question is not about findings.
 */
const UNCOUNTED = new Set([
  "repo",
  "repos",
  "repository",
  "repositories",
  "asset",
  "assets",
  "service",
  "services",
  "project",
  "projects",
  "app",
  "apps",
  "team",
  "teams",
  "group",
  "groups",
  "scanner",
  "scanners",
  "scan",
  "scans",
]);

export const FILLER_EXAMPLES: readonly Example[] = [
  { q: "how are things looking?", reads: { intent: "digest" } },
  // A count of things the digest does not count: refused, never answered with the default digest.
  { q: "how many repositories do we have", reads: { problem: "unread" } },
  { q: "what is the number of teams using this", reads: { problem: "unread" } },
  // Counted with a number named, the thing is only where the number comes from.
  { q: "how many scanner findings last week", reads: { metrics: ["findings"], range: "lastweek" } },
];

/** "how many repos", "the number of teams": the word counted, when no number of the digest is named. */
function counted(words: readonly string[], i: number): boolean {
  return (
    UNCOUNTED.has(words[i] ?? "") &&
    (words[i - 1] === "many" || (words[i - 1] === "of" && words[i - 2] === "number"))
  );
}

export const fillerPass: Pass = {
  name: "fillers",
  why: "last: words such as 'up', 'new' or 'app' are passed over only when no rule read them",
  run(s, found) {
    const fillers = s
      .unclaimed()
      .filter((u) => FILLERS.has(u.word) && !(found.metrics.length === 0 && counted(s.words, u.i)));
    found.digestCue = fillers.some((u) => DIGEST_CUES.has(u.word));
    for (const u of fillers) s.claim(u.i);
  },
};
