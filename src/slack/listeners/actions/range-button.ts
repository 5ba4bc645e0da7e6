import type { ButtonAction } from "@slack/bolt";
import { decodeState } from "../../../../templates/state.ts";
import type { AppServices } from "../../services.ts";
import { messageAction } from "./message-action.ts";
import { redrawDigest } from "../../digest-redraw.ts";

/** A range preset clicked: its value is the whole state with the new range. */
export function rangeButton(deps: AppServices) {
  return messageAction(deps, async ({ body, action, client, respond, ref }) => {
    const state = decodeState((action as ButtonAction).value);
    await redrawDigest({ deps, ref, body, client, respond, state });
  });
}
