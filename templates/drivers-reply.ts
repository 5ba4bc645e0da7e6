import type { Block, Message } from "../src/blockkit/types.ts";
import type { DigestView } from "../src/insights/types.ts";
import { driversParts } from "./digest-drivers.ts";
import { digestSummary } from "./digest-message.ts";
import { gapNotice, partialNote } from "./digest-notices.ts";
import { scopeBlock } from "./digest-summary.ts";

/**
 * The drivers of a digest on their own, for a reply in the thread of a digest that stays as everyone
 * saw it: what is compared, the data-gap notices, the breakdown and its asset-group buttons.
 */
export function driversReply(view: DigestView): Message {
  const drivers = driversParts(view);
  const blocks: (Block | null)[] = [
    scopeBlock(view.digest, view.filters, partialNote(view)),
    gapNotice(view),
    ...drivers.blocks,
  ];
  return {
    blocks: blocks.filter((b) => b !== null),
    text: digestSummary(view.digest, view) + drivers.fallback,
  };
}
