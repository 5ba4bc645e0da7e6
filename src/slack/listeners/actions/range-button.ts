import type { ButtonAction } from "@slack/bolt";
import { decodeState } from "../../../../templates/state.ts";
import { RANGE_ACTION_PREFIX } from "../../../ids.ts";
import { redrawDigest } from "../../digest-redraw.ts";
import { onAction } from "../../frame/index.ts";

/** A range preset clicked: its value is the whole state with the new range. */
export const rangeButton = onAction({
  id: new RegExp(`^${RANGE_ACTION_PREFIX}`),
  access: "reader",
  run: (ctx) => redrawDigest(ctx, decodeState((ctx.action as ButtonAction).value)),
});
