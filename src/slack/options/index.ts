import type { App } from "@slack/bolt";
import { ACTION } from "../../ids.ts";
import type { SlackDeps } from "../deps.ts";
import { filterOptions } from "./filter-options.ts";

/** Options endpoints of external selects. */
export function registerOptions(app: App, deps: SlackDeps): void {
  app.options(ACTION.assetSelect, filterOptions(deps, "asset"));
  app.options(ACTION.scannerSelect, filterOptions(deps, "scanner"));
}
