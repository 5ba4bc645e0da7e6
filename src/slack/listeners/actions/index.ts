import type { App } from "@slack/bolt";
import { ACTION, RANGE_ACTION_PREFIX, SUBSCRIBE_SCHEDULE_FIELDS } from "../../../ids.ts";
import type { AppServices } from "../../services.ts";
import { filterSelect } from "./filter-select.ts";
import { homeConnect } from "./home-connect.ts";
import { rangeButton } from "./range-button.ts";
import { shareDigest } from "./share.ts";
import { subscribeModalChange } from "./subscribe-modal-change.ts";
import { subscriptionButton } from "./subscription-button.ts";
import { subscriptionEdit } from "./subscription-edit.ts";
import { subscriptionNew } from "./subscription-new.ts";
import { subscriptionPage } from "./subscription-page.ts";

/** Block actions, one handler per control. */
export function registerActions(app: App, deps: AppServices): void {
  app.action(ACTION.assetSelect, filterSelect(deps, "asset"));
  app.action(ACTION.scannerSelect, filterSelect(deps, "scanner"));
  app.action(new RegExp(`^${RANGE_ACTION_PREFIX}`), rangeButton(deps));
  app.action(ACTION.share, shareDigest(deps));
  // Link buttons still send an action; acknowledging it keeps Slack from showing a warning.
  app.action(ACTION.openPlatform, async ({ ack }) => ack());
  // Subscriptions: rows of the Home tab and of the list, the Home tab's buttons, the modal's redraws.
  app.action(ACTION.subscriptionPause, subscriptionButton(deps, "pause"));
  app.action(ACTION.subscriptionResume, subscriptionButton(deps, "resume"));
  app.action(ACTION.subscriptionSend, subscriptionButton(deps, "send"));
  app.action(ACTION.subscriptionDelete, subscriptionButton(deps, "delete"));
  app.action(ACTION.subscriptionEdit, subscriptionEdit(deps));
  app.action(ACTION.subscriptionsPage, subscriptionPage(deps));
  app.action(ACTION.subscriptionNew, subscriptionNew(deps));
  app.action(ACTION.connect, homeConnect(deps));
  for (const field of SUBSCRIBE_SCHEDULE_FIELDS) app.action(field, subscribeModalChange(deps));
}
