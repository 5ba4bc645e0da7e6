import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  StaticSelectAction,
} from "@slack/bolt";
import { ALL_VALUE } from "../../../templates/filter-menu.ts";
import { decodeState } from "../../../templates/state.ts";
import type { SlackDeps } from "../deps.ts";
import { errorReply } from "../errors.ts";
import { workspaceOf } from "../workspace.ts";
import { redrawDigest } from "./redraw.ts";

/** Asset or scanner picked in a digest's menu: the state rides in the menu block's block_id. */
export function filterSelect(deps: SlackDeps, kind: "asset" | "scanner") {
  return async ({
    ack,
    body,
    action,
    client,
    respond,
    context,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs) => {
    await ack();
    const select = action as StaticSelectAction;
    try {
      const state = decodeState(select.block_id);
      const value = select.selected_option?.value;
      const chosen = !value || value === ALL_VALUE ? [] : [value];
      const next = kind === "asset" ? { ...state, assetIds: chosen } : { ...state, scannerIds: chosen };
      await redrawDigest({ deps, ref: workspaceOf(context), body, client, respond, state: next });
    } catch (err) {
      await respond({ ...errorReply(err, deps.logger), response_type: "ephemeral", replace_original: false });
    }
  };
}
