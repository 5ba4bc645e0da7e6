import type { ResponseUrlRecord, StandInState } from "../state.ts";
import type { Actor } from "./payloads.ts";

/** Path prefix of the response_url endpoints. */
export const RESPONSE_PATH = "/response/";

/** A trigger_id the stand-in will honour once, for 3 s, in views.open / views.push. */
export function mintTrigger(state: StandInState, teamId: string, userId: string, viewId?: string): string {
  const id = state.ids.triggerId();
  state.triggers.set(id, { id, teamId, userId, createdAt: state.now(), used: false, viewId });
  return id;
}

/** A response_url bound to a user, a channel and (for block actions) the message acted on. */
export function mintResponseUrl(
  state: StandInState,
  baseUrl: string,
  r: Pick<ResponseUrlRecord, "teamId" | "userId" | "channelId" | "target">,
): string {
  const id = state.ids.responseId();
  state.responseUrls.set(id, { ...r, id, createdAt: state.now(), uses: 0 });
  return `${baseUrl}${RESPONSE_PATH}${id}`;
}

/**
 * Who acts: names and enterprise come from the stand-in's workspace when it knows the team, so
 * payloads for unknown teams (to test the app's refusal) can still be built.
 */
export function actorFor(
  state: StandInState,
  appId: string,
  teamId: string,
  userId: string,
  enterpriseId?: string,
): Actor {
  const ws = state.workspaces.get(teamId);
  const enterprise = enterpriseId
    ? { id: enterpriseId, name: ws?.enterprise?.id === enterpriseId ? ws.enterprise.name : enterpriseId }
    : (ws?.enterprise ?? null);
  return {
    teamId,
    domain: ws?.domain ?? teamId.toLowerCase(),
    enterprise,
    isEnterpriseInstall: ws?.isEnterpriseInstall ?? false,
    userId,
    userName: ws?.users.get(userId)?.name ?? userId.toLowerCase(),
    appId,
  };
}
