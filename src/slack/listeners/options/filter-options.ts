import { optionsForQuery } from "../../../../templates/filter-menu.ts";
import { ACTION } from "../../../ids.ts";
import { type OptionsEntry, onOptions } from "../../frame/index.ts";

/**
 * Type-ahead for the digest's external asset/scanner menus (over 100 choices), by display name. The
 * lists come from what the digest left behind when it was built (one Redis read), so the answer
 * never waits for a digest; only when none is kept are they fetched (no digest computed either).
 */
function filterOptions(kind: "asset" | "scanner"): OptionsEntry {
  return onOptions({
    id: kind === "asset" ? ACTION.assetSelect : ACTION.scannerSelect,
    access: "reader",
    async run(ctx) {
      const user = await ctx.user();
      const lists = await ctx.deps.digests.filterLists(ctx.ref, user.tz, ctx.deps.clock(), { kept: true });
      const list = kind === "asset" ? lists.assets : lists.scanners;
      return optionsForQuery(kind, list ?? [], ctx.body.value ?? "");
    },
  });
}

export const assetOptions = filterOptions("asset");
export const scannerOptions = filterOptions("scanner");
