import type { App } from "@slack/bolt";
import { ACTION, SUBSCRIBE_FIELD } from "../../../ids.ts";
import type { AppServices } from "../../services.ts";
import { filterOptions } from "./filter-options.ts";
import { subscribeFilterOptions } from "./subscribe-filters.ts";

/** Options endpoints of external selects. */
export function registerOptions(app: App, deps: AppServices): void {
  app.options(ACTION.assetSelect, filterOptions(deps, "asset"));
  app.options(ACTION.scannerSelect, filterOptions(deps, "scanner"));
  app.options(SUBSCRIBE_FIELD.assets, subscribeFilterOptions(deps, "asset"));
  app.options(SUBSCRIBE_FIELD.scanners, subscribeFilterOptions(deps, "scanner"));
}
