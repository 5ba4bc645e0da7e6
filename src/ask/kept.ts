/**
 * A button's value that stands for a draft kept in Redis (src/store/drafts.ts) when what it carries
 * does not fit the button: `{"d":"<id>"}`. Shared by the Adjust and Confirm buttons.
 */

const KEPT_ID = /^[a-f0-9]{32}$/;

/** The value of a button that carries the id of a kept draft. */
export const keptValue = (id: string): string => JSON.stringify({ d: id });

/** The kept draft's id a parsed button value names, if it names one. */
export function keptIdOf(parsed: unknown): string | undefined {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const d = (parsed as { d?: unknown }).d;
  return typeof d === "string" && KEPT_ID.test(d) && Object.keys(parsed).length === 1 ? d : undefined;
}
