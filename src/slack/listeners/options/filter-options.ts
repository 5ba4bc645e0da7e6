import { optionsForQuery } from "../../../../templates/filter-menu.ts";
import { decodeState } from "../../../../templates/state.ts";
import { ACTION } from "../../../ids.ts";
import { digestViewForState } from "../../digest-redraw.ts";
import { type OptionsEntry, onOptions } from "../../frame/index.ts";

/** Type-ahead for the digest's external asset/scanner menus (over 100 choices), by display name. */
function filterOptions(kind: "asset" | "scanner"): OptionsEntry {
  return onOptions({
    id: kind === "asset" ? ACTION.assetSelect : ACTION.scannerSelect,
    access: "reader",
    async run(ctx) {
      const { range } = decodeState(ctx.body.block_id);
      const view = await digestViewForState(ctx, { range, assetIds: [], scannerIds: [] }, {});
      const list = kind === "asset" ? view.filters.assets : view.filters.scanners;
      return optionsForQuery(kind, list ?? [], ctx.body.value ?? "");
    },
  });
}

export const assetOptions = filterOptions("asset");
export const scannerOptions = filterOptions("scanner");
