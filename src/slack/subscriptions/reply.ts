import type { BlockAction, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { subscriptionList } from "../../../templates/subscriptions.ts";
import { escapeMrkdwn, mrkdwn } from "../../blockkit/text.ts";
import { BLOCK } from "../../ids.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import { errorReply } from "../error-reply.ts";
import { publishHome } from "../home.ts";
import { canManage } from "../permissions.ts";
import type { AppServices } from "../services.ts";
import { LIST_PAGE, pageOffsetOf, subscriptionRows } from "./list.ts";

/**
 * Subscription buttons live on two surfaces: the App Home tab (answered by re-publishing it with a
 * notice) and the ephemeral list from `/insights subscriptions` (answered through its response_url,
 * redrawn in place). These helpers answer on whichever the click came from.
 */

export interface Surface {
  deps: AppServices;
  client: WebClient;
  ref: WorkspaceRef;
  body: BlockAction;
  /** Bolt leaves it out for clicks without a response_url (the Home tab). */
  respond?: RespondFn;
}

export const fromHome = (body: BlockAction) => body.view?.type === "home";

/** Shows `notice` (our mrkdwn) where the click came from; a list is redrawn below it, on the same page. */
export async function answer(s: Surface, notice: string, redrawList = true): Promise<void> {
  const { deps, client, ref, body } = s;
  if (fromHome(body)) {
    await publishHome(deps, client, ref, body.user.id, notice);
    return;
  }
  if (!s.respond) return;
  if (!redrawList) {
    await s.respond({ response_type: "ephemeral", replace_original: false, text: notice });
    return;
  }
  const user = await deps.users.get(ref, client, body.user.id);
  const manager = canManage(user, deps.policy, await deps.installerOf(ref));
  const offset = pageOffsetOf(body.actions[0]?.block_id, BLOCK.subscriptionRowPrefix);
  const rows = await subscriptionRows(deps, ref, body.channel?.id, offset);
  const list = subscriptionList(rows, { canManage: manager, editable: true, offset, pageSize: LIST_PAGE });
  await s.respond({
    response_type: "ephemeral",
    replace_original: true,
    text: list.text,
    blocks: [{ type: "section", text: mrkdwn(notice) }, ...list.blocks],
  });
}

/** An error where the click came from: a notice on the Home tab, a private reply under a list. */
export async function answerError(s: Surface, err: unknown): Promise<void> {
  const log = s.deps.logger.child({ teamId: s.ref.teamId, userId: s.body.user.id });
  const reply = errorReply(err, log, { action: s.body.actions[0]?.action_id });
  if (fromHome(s.body)) {
    await publishHome(s.deps, s.client, s.ref, s.body.user.id, `:warning: ${escapeMrkdwn(reply.text)}`);
    return;
  }
  await s
    .respond?.({ ...reply, response_type: "ephemeral", replace_original: false })
    .catch((e: unknown) => log.warn({ err: e }, "could not send the error reply"));
}
