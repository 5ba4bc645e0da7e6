import type { OptionsEntry } from "../../frame/index.ts";
import { assetOptions, scannerOptions } from "./filter-options.ts";
import { subscribeAssetOptions, subscribeScannerOptions } from "./subscribe-filters.ts";

/** Options endpoints of external selects (type-ahead). */
export const OPTIONS: OptionsEntry[] = [
  assetOptions,
  scannerOptions,
  subscribeAssetOptions,
  subscribeScannerOptions,
];
