import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from "@slack/bolt";
import { ALL_VALUE, optionsForQuery } from "../../../../templates/filter-menu.ts";
import { loadFilterLists } from "../../../digests/subscription-filters.ts";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";

/** Slack drops an options reply after 3 s; answer empty before then rather than not at all. */
const BUDGET_MS = 2_500;

/**
 * Type-ahead for the subscribe modal's asset and scanner menus when there are over 100 choices. An
 * empty multi select already means "all", so the digest menu's clearing option is left out.
 */
export function subscribeFilterOptions(deps: AppServices, kind: "asset" | "scanner") {
  return async ({
    ack,
    body,
    context,
    client,
  }: SlackOptionsMiddlewareArgs<"block_suggestion"> & AllMiddlewareArgs) => {
    const log = deps.logger.child({
      teamId: context.teamId,
      userId: body.user?.id,
      options: `subscribe_${kind}`,
    });
    const work = (async () => {
      const ref = workspaceOf(context);
      const user = await deps.users.get(ref, client, body.user.id);
      const lists = await loadFilterLists(deps.digests, ref, user.tz, deps.clock());
      const reply = optionsForQuery(
        kind,
        (kind === "asset" ? lists.assets : lists.scanners) ?? [],
        body.value ?? "",
      );
      return { options: reply.options.filter((o) => o.value !== ALL_VALUE) };
    })();
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), BUDGET_MS).unref());
    try {
      const reply = await Promise.race([work, timeout]);
      if (!reply) log.warn("options reply timed out; answered empty");
      await ack(reply ?? { options: [] });
    } catch (err) {
      log.warn({ err }, "options lookup failed; answered empty");
      await ack({ options: [] });
    }
    work.catch(() => undefined);
  };
}
