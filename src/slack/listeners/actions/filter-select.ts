import type { StaticSelectAction } from "@slack/bolt";
import { ALL_VALUE } from "../../../../templates/filter-menu.ts";
import { decodeState } from "../../../../templates/state.ts";
import { ACTION } from "../../../ids.ts";
import { redrawDigest } from "../../digest-redraw.ts";
import { type ActionEntry, onAction } from "../../frame/index.ts";

/** Asset or scanner picked in a digest's menu: the state rides in the menu block's block_id. */
function filterSelect(kind: "asset" | "scanner"): ActionEntry {
  return onAction({
    id: kind === "asset" ? ACTION.assetSelect : ACTION.scannerSelect,
    access: "reader",
    async run(ctx) {
      const select = ctx.action as StaticSelectAction;
      const state = decodeState(select.block_id);
      const value = select.selected_option?.value;
      const chosen = !value || value === ALL_VALUE ? [] : [value];
      await redrawDigest(
        ctx,
        kind === "asset" ? { ...state, assetIds: chosen } : { ...state, scannerIds: chosen },
      );
    },
  });
}

export const assetSelect = filterSelect("asset");
export const scannerSelect = filterSelect("scanner");
