import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { decodeState } from "../../../templates/state.ts";
import type { SlackDeps } from "../deps.ts";
import { errorReply } from "../errors.ts";
import { workspaceOf } from "../workspace.ts";
import { redrawDigest } from "./redraw.ts";

/** A range preset clicked: its value is the whole state with the new range. */
export function rangeButton(deps: SlackDeps) {
  return async ({
    ack,
    body,
    action,
    client,
    respond,
    context,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs) => {
    await ack();
    try {
      const state = decodeState((action as ButtonAction).value);
      await redrawDigest({ deps, ref: workspaceOf(context), body, client, respond, state });
    } catch (err) {
      await respond({ ...errorReply(err, deps.logger), response_type: "ephemeral", replace_original: false });
    }
  };
}
