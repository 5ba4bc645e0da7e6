import type { Block } from "./types.ts";

/**
 * The blocks Slack draws data with (a chart, a table), which a workspace or client may not take yet:
 * telling when Slack refused one of them, and the message without them. Pure.
 */

export const NATIVE_BLOCKS: ReadonlySet<string> = new Set(["data_visualization", "table"]);

const typeOf = (b: unknown) =>
  typeof b === "object" && b !== null && typeof (b as { type?: unknown }).type === "string"
    ? (b as { type: string }).type
    : "";

/** Whether any block is one Slack draws data with. */
export function hasNative(blocks: readonly unknown[]): boolean {
  return blocks.some((b) => NATIVE_BLOCKS.has(typeOf(b)));
}

/** The message without its chart and table blocks (the text fallback still says what they said). */
export function withoutNative<M extends { blocks: Block[] }>(message: M): M {
  return { ...message, blocks: message.blocks.filter((b) => !NATIVE_BLOCKS.has(b.type)) };
}

/**
 * The types of the blocks Slack's `invalid_blocks` messages point at (`[json-pointer:/blocks/7/…]`),
 * read from the blocks that were sent.
 *
 * @example refusedTypes(["unsupported type: table [json-pointer:/blocks/7/type]"], blocks) // Set { "table" }
 */
export function refusedTypes(messages: readonly string[], blocks: readonly unknown[]): Set<string> {
  const types = new Set<string>();
  for (const m of messages)
    for (const [, index] of m.matchAll(/json-pointer:\/blocks\/(\d+)/g)) {
      const type = typeOf(blocks[Number(index)]);
      if (type) types.add(type);
    }
  return types;
}

/**
 * Whether Slack's refusal of `blocks` is a refusal of their chart or table: an `invalid_blocks` that
 * names one of them, or names no block at all while the message carries one (then a retry without
 * them is the one thing left to try). A refusal naming only other blocks is a bug, not this.
 */
export function refusesNative(
  refusal: { error: string; messages: readonly string[] },
  blocks: readonly unknown[],
): boolean {
  if (refusal.error !== "invalid_blocks" || !hasNative(blocks)) return false;
  const named = refusedTypes(refusal.messages, blocks);
  return named.size === 0 || [...named].some((t) => NATIVE_BLOCKS.has(t));
}
