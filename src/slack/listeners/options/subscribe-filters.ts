import { ALL_VALUE } from "../../../../templates/filter-menu.ts";
import { SUBSCRIBE_FIELD } from "../../../ids.ts";
import { keptListOptions } from "./filter-options.ts";

/**
 * Type-ahead for the subscribe modal's asset and scanner menus when there are over 100 choices. An
 * empty multi select already means "all", so the digest menu's clearing option is left out.
 */
const withoutAll = <O extends { value: string }>(reply: { options: O[] }) => ({
  options: reply.options.filter((o) => o.value !== ALL_VALUE),
});

export const subscribeAssetOptions = keptListOptions(SUBSCRIBE_FIELD.assets, "asset", withoutAll);
export const subscribeScannerOptions = keptListOptions(SUBSCRIBE_FIELD.scanners, "scanner", withoutAll);
