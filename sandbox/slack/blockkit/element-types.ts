import reference from "./reference.json" with { type: "json" };

/**
 * The element types Slack defines, the properties each may carry, and where each may sit (read
 * from reference.json, Slack's reference as data): Slack refuses an element with a property it
 * does not define, or in a place it does not belong.
 */

/** Where an element sits decides which types Slack accepts there. */
export type Place = "actions" | "accessory" | "input";

export const COMMON = ["type", "action_id"];

const TYPES: Record<string, { fields: readonly string[]; in: readonly string[] }> = reference.elements;

/** Properties of each element type Slack defines. */
export const ELEMENTS: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(TYPES).map(([type, t]) => [type, t.fields]),
);

/** The text-like inputs, which only input blocks take. */
export const INPUT_ONLY = new Set(
  Object.keys(TYPES).filter((type) => TYPES[type]?.in.length === 1 && TYPES[type]?.in[0] === "input"),
);

export function allowedAt(type: string, place: Place): boolean {
  return TYPES[type]?.in.includes(place) ?? false;
}
