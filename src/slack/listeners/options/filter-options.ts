import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from "@slack/bolt";
import { optionsForQuery } from "../../../../templates/filter-menu.ts";
import { decodeState } from "../../../../templates/state.ts";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";

/** Slack drops an options reply after 3 s; answer empty before then rather than not at all. */
const BUDGET_MS = 2_500;

/** Type-ahead for the external asset/scanner menus (over 100 choices), by display name. */
export function filterOptions(deps: AppServices, kind: "asset" | "scanner") {
  return async ({
    ack,
    body,
    context,
    client,
  }: SlackOptionsMiddlewareArgs<"block_suggestion"> & AllMiddlewareArgs) => {
    const log = deps.logger.child({ teamId: context.teamId, userId: body.user?.id, options: kind });
    const work = (async () => {
      const state = decodeState(body.block_id);
      const ref = workspaceOf(context);
      const user = await deps.users.get(ref, client, body.user.id);
      const { view } = await deps.digests.build({ ref, range: state.range, tz: user.tz, now: deps.clock() });
      const list = kind === "asset" ? view.filters.assets : view.filters.scanners;
      return optionsForQuery(kind, list ?? [], body.value ?? "");
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
