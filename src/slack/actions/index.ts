import type { App } from "@slack/bolt";
import { ACTION, RANGE_ACTION_PREFIX } from "../../ids.ts";
import type { SlackDeps } from "../deps.ts";
import { filterSelect } from "./filter-select.ts";
import { rangeButton } from "./range-button.ts";
import { shareDigest } from "./share.ts";

/** Block actions, one handler per control. */
export function registerActions(app: App, deps: SlackDeps): void {
  app.action(ACTION.assetSelect, filterSelect(deps, "asset"));
  app.action(ACTION.scannerSelect, filterSelect(deps, "scanner"));
  app.action(new RegExp(`^${RANGE_ACTION_PREFIX}`), rangeButton(deps));
  app.action(ACTION.share, shareDigest(deps));
  // Link buttons still send an action; acknowledging it keeps Slack from showing a warning.
  app.action(ACTION.openPlatform, async ({ ack }) => ack());
}
