import { z } from "zod";
import { AppError } from "../src/errors.ts";

/**
 * What a digest's buttons and selects need to re-query: the range and the active filters. It travels
 * inside the message (button `value`s, the filter block's `block_id`) so no server keeps it, and it
 * comes back from Slack as untrusted input, hence the validation on the way in.
 */
export interface DigestState {
  /** Canonical range spec, e.g. `last7d` or `2026-11-01..2026-11-15`. */
  range: string;
  assetIds: string[];
  scannerIds: string[];
  /** Top-level asset groups the digest is narrowed to (a drivers button); absent = none. */
  assetGroups?: string[];
}

/** Same bound as an option value: every id must also be usable as one. */
const id = z
  .string()
  .min(1)
  .max(75)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ids with control characters are junk
  .regex(/^[^\u0000-\u001f\u007f]+$/);

/** Compact wire form: short keys, empty lists left out. Unknown keys are ignored (newer senders). */
/** A group is a name, not an id: longer, but as free of control characters. */
const group = z
  .string()
  .min(1)
  .max(200)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: names with control characters are junk
  .regex(/^[^\u0000-\u001f\u007f]+$/);

/** Whether a group name can travel in a state (and so be a button that narrows to it). */
export function isCarriableGroup(name: string): boolean {
  return group.safeParse(name).success;
}

const wire = z.object({
  r: z.string().regex(/^[A-Za-z0-9.-]{1,40}$/),
  a: z.array(id).max(100).optional(),
  s: z.array(id).max(100).optional(),
  g: z.array(group).max(20).optional(),
});

const MAX_INPUT = 3000;

/** Compact JSON of the state, e.g. `{"r":"last7d","a":["3f0c…"]}`. */
export function encodeState(state: DigestState): string {
  const out: z.infer<typeof wire> = { r: state.range };
  if (state.assetIds.length > 0) out.a = state.assetIds;
  if (state.scannerIds.length > 0) out.s = state.scannerIds;
  if (state.assetGroups && state.assetGroups.length > 0) out.g = state.assetGroups;
  return JSON.stringify(out);
}

/**
 * Encodes the state within `max` characters (255 for a block_id, 2,000 for a button value). Filters
 * too many to fit are cut from the end of each list, scanners first, so the range always survives;
 * a digest filtered by dozens of ids keeps as many as fit.
 */
export function encodeStateWithin(state: DigestState, max: number): string {
  const assetIds = state.assetIds.slice(0, 100);
  const scannerIds = state.scannerIds.slice(0, 100);
  // Groups that could never be read back (too long, control characters) are not written.
  const assetGroups = (state.assetGroups ?? []).filter(isCarriableGroup).slice(0, 20);
  const encode = () => encodeState({ range: state.range, assetIds, scannerIds, assetGroups });
  let encoded = encode();
  while (encoded.length > max && (scannerIds.length > 0 || assetIds.length > 0 || assetGroups.length > 0)) {
    if (scannerIds.length > 0) scannerIds.pop();
    else if (assetIds.length > 0) assetIds.pop();
    else assetGroups.pop();
    encoded = encode();
  }
  return encoded;
}

/**
 * Parses a state that came back from Slack.
 *
 * @throws AppError `bad_state` for anything that is not a state this module wrote.
 */
export function decodeState(text: unknown): DigestState {
  if (typeof text !== "string" || text.length === 0 || text.length > MAX_INPUT)
    throw new AppError("bad_state", "This message's controls carry no readable state.");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new AppError("bad_state", "This message's controls carry no readable state.", { cause });
  }
  const parsed = wire.safeParse(raw);
  if (!parsed.success)
    throw new AppError("bad_state", "This message's controls carry a state that is not valid.", {
      details: { issues: parsed.error.issues.length },
    });
  const state: DigestState = {
    range: parsed.data.r,
    assetIds: parsed.data.a ?? [],
    scannerIds: parsed.data.s ?? [],
  };
  if (parsed.data.g && parsed.data.g.length > 0) state.assetGroups = parsed.data.g;
  return state;
}
