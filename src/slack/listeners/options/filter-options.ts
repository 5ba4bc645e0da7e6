import { optionsForQuery } from "../../../../templates/filter-menu.ts";
import { ACTION } from "../../../ids.ts";
import { type OptionsEntry, onOptions } from "../../frame/index.ts";

type Kind = "asset" | "scanner";
type Reply = ReturnType<typeof optionsForQuery>;

/**
 * An asset or scanner type-ahead answered from the lists the last digest left behind (one Redis
 * read), so the answer never waits for a digest; only when none is kept are they fetched (no digest
 * computed either). `shape` lets a menu adjust the reply to its own kind of select.
 */
export function keptListOptions(
  id: string,
  kind: Kind,
  shape: (reply: Reply) => Reply = (r) => r,
): OptionsEntry {
  return onOptions({
    id,
    access: "reader",
    async run(ctx) {
      const user = await ctx.user();
      const lists = await ctx.deps.digests.filterLists(ctx.ref, user.tz, ctx.deps.clock(), { kept: true });
      const list = kind === "asset" ? lists.assets : lists.scanners;
      return shape(optionsForQuery(kind, list ?? [], ctx.body.value ?? ""));
    },
  });
}

/** Type-ahead for the digest's external asset/scanner menus (over 100 choices), by display name. */
export const assetOptions = keptListOptions(ACTION.assetSelect, "asset");
export const scannerOptions = keptListOptions(ACTION.scannerSelect, "scanner");
