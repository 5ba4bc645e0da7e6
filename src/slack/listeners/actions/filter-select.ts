import type { StaticSelectAction } from "@slack/bolt";
import { ALL_VALUE } from "../../../../templates/filter-menu.ts";
import { decodeState } from "../../../../templates/state.ts";
import type { AppServices } from "../../services.ts";
import { messageAction } from "./message-action.ts";
import { redrawDigest } from "../../digest-redraw.ts";

/** Asset or scanner picked in a digest's menu: the state rides in the menu block's block_id. */
export function filterSelect(deps: AppServices, kind: "asset" | "scanner") {
  return messageAction(deps, async ({ body, action, client, respond, ref }) => {
    const select = action as StaticSelectAction;
    const state = decodeState(select.block_id);
    const value = select.selected_option?.value;
    const chosen = !value || value === ALL_VALUE ? [] : [value];
    const next = kind === "asset" ? { ...state, assetIds: chosen } : { ...state, scannerIds: chosen };
    await redrawDigest({ deps, ref, body, client, respond, state: next });
  });
}
