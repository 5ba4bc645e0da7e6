import type { ManageAction } from "../types.ts";
import type { Example } from "./rule.ts";

/**
 * "stop sending me the daily digest", "pause my alerts": a wish about what is sent, which the
 * commands fulfil; read only among the words nothing else read.
 */

const MANAGE_WORDS: Readonly<Record<string, ManageAction>> = {
  stop: "stop",
  unsubscribe: "stop",
  unsub: "stop",
  cancel: "stop",
  disable: "stop",
  delete: "stop",
  remove: "stop",
  pause: "pause",
  mute: "pause",
  snooze: "pause",
  silence: "pause",
  resume: "resume",
  unpause: "resume",
  unmute: "resume",
  restart: "resume",
};

export const MANAGE_EXAMPLES: readonly Example[] = [
  { q: "stop sending me the daily digest", reads: { problem: "manage" } },
  { q: "pause my alerts", reads: { problem: "manage" } },
];

/** The first stop, pause or resume word left over ("turn off" counts as stop), if any. */
export function manageAction(leftover: readonly string[]): ManageAction | undefined {
  const typed = leftover.map((w) => w.toLowerCase());
  for (let i = 0; i < typed.length; i++) {
    const w = typed[i] as string;
    if (Object.hasOwn(MANAGE_WORDS, w)) return MANAGE_WORDS[w];
    if (w === "turn" && typed[i + 1] === "off") return "stop";
  }
  return undefined;
}
