import type { ActionEntry } from "../../frame/index.ts";
import { alertButtons } from "./alert-buttons.ts";
import { ASK_ACTIONS } from "./ask.ts";
import { exportButton } from "./export-csv.ts";
import { assetSelect, scannerSelect } from "./filter-select.ts";
import { homeConnect } from "./home-connect.ts";
import { helpOpen, openPlatform } from "./links.ts";
import { rangeButton } from "./range-button.ts";
import { shareDigest } from "./share.ts";
import { subscribeChannelChange, subscribeModalChanges } from "./subscribe-modal-change.ts";
import { subscriptionButtons } from "./subscription-button.ts";
import { subscriptionEdit } from "./subscription-edit.ts";
import { subscriptionNew, subscriptionNewPersonal } from "./subscription-new.ts";
import { subscriptionPage } from "./subscription-page.ts";
import { groupButton, whyButton } from "./why.ts";

/** Block actions, one entry per control: digest controls, links, subscription rows, modal redraws. */
export const ACTIONS: ActionEntry[] = [
  assetSelect,
  scannerSelect,
  rangeButton,
  shareDigest,
  exportButton,
  whyButton,
  groupButton,
  openPlatform,
  helpOpen,
  ...subscriptionButtons,
  subscriptionEdit,
  subscriptionPage,
  subscriptionNew,
  subscriptionNewPersonal,
  homeConnect,
  ...subscribeModalChanges,
  subscribeChannelChange,
  ...alertButtons,
  ...ASK_ACTIONS,
];
