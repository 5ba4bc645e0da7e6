import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/** What `lowerPriority` did: how many threads now run at the nice value, and how many could not. */
export interface PriorityOutcome {
  nice: number;
  threads: number;
  refused: number;
}

/** The process's threads by id (Linux); just "this thread" (0) where /proc/self/task does not exist. */
function ownThreads(): number[] {
  try {
    return readdirSync("/proc/self/task").map(Number);
  } catch {
    return [0];
  }
}

/**
 * Gives every thread of this process a nice value of at least `nice`, so that on a shared host the
 * processes that answer Slack within its 3 s come first. On Linux a nice value belongs to a thread, not
 * to the process: V8's and libuv's threads started with Node keep the old one unless each is set, and
 * threads started later copy the thread that starts them. Never lowers a nice value (that needs a
 * privilege, and an operator who set a higher one meant it). A thread that refuses is counted as
 * refused; one that ended between the listing and the call is passed over.
 */
export function lowerPriority(nice: number, tids: readonly number[] = ownThreads()): PriorityOutcome {
  const out: PriorityOutcome = { nice, threads: 0, refused: 0 };
  if (nice <= 0) return out;
  for (const tid of tids) {
    try {
      if (getPriority(tid) < nice) setPriority(tid, nice);
      out.threads++;
    } catch (err) {
      // A thread that ended between the listing and the call is not a refusal.
      if ((err as { info?: { code?: string } }).info?.code !== "ESRCH") out.refused++;
    }
  }
  return out;
}
