import { ALL_VALUE, optionsForQuery } from "../../../../templates/filter-menu.ts";
import { SUBSCRIBE_FIELD } from "../../../ids.ts";
import { type OptionsEntry, onOptions } from "../../frame/index.ts";

/**
 * Type-ahead for the subscribe modal's asset and scanner menus when there are over 100 choices. An
 * empty multi select already means "all", so the digest menu's clearing option is left out. Lists
 * a digest left behind answer first, as for the digest's menus.
 */
function subscribeFilterOptions(kind: "asset" | "scanner"): OptionsEntry {
  return onOptions({
    id: kind === "asset" ? SUBSCRIBE_FIELD.assets : SUBSCRIBE_FIELD.scanners,
    access: "reader",
    async run(ctx) {
      const user = await ctx.user();
      const lists = await ctx.deps.digests.filterLists(ctx.ref, user.tz, ctx.deps.clock(), { kept: true });
      const reply = optionsForQuery(
        kind,
        (kind === "asset" ? lists.assets : lists.scanners) ?? [],
        ctx.body.value ?? "",
      );
      return { options: reply.options.filter((o) => o.value !== ALL_VALUE) };
    },
  });
}

export const subscribeAssetOptions = subscribeFilterOptions("asset");
export const subscribeScannerOptions = subscribeFilterOptions("scanner");
