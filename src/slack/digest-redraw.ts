import type { BlockAction, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { digestMessage } from "../../templates/digest-message.ts";
import type { DigestState } from "../../templates/state.ts";
import type { DigestRequest } from "../digests/digest-service.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { AppServices } from "./services.ts";

/** The digest a message's state describes, in the clicking user's timezone. */
export async function digestForState(
  deps: AppServices,
  ref: WorkspaceRef,
  client: WebClient,
  userId: string,
  state: DigestState,
  extra: Pick<DigestRequest, "shareable" | "attribution">,
) {
  const user = await deps.users.get(ref, client, userId);
  const { view } = await deps.digests.build({
    ref,
    range: state.range,
    tz: user.tz,
    now: deps.clock(),
    assetIds: state.assetIds,
    scannerIds: state.scannerIds,
    ...extra,
  });
  return digestMessage(view);
}

/**
 * Re-renders a digest for a new state (filter or range) in answer to a click. An ephemeral digest
 * is replaced in place; a digest in the channel stays as everyone saw it and the clicker gets the
 * narrowed view privately, so one person's filter never rewrites a shared message.
 */
export async function redrawDigest(args: {
  deps: AppServices;
  ref: WorkspaceRef;
  body: BlockAction;
  client: WebClient;
  respond: RespondFn;
  state: DigestState;
}): Promise<void> {
  const { deps, ref, body, client, respond, state } = args;
  const inPlace = body.container?.is_ephemeral === true;
  const message = await digestForState(deps, ref, client, body.user.id, state, { shareable: true });
  await respond({ ...message, response_type: "ephemeral", replace_original: inPlace });
}
