import { DIGEST_CUES, FILLERS } from "../vocabulary.ts";
import type { Pass } from "./found.ts";

export const fillerPass: Pass = {
  name: "fillers",
  why: "last: words such as 'up', 'new' or 'app' are passed over only when no rule read them",
  run(s, found) {
    const fillers = s.unclaimed().filter((u) => FILLERS.has(u.word));
    found.digestCue = fillers.some((u) => DIGEST_CUES.has(u.word));
    for (const u of fillers) s.claim(u.i);
  },
};
