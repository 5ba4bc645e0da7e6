import { randomHex } from "../ids.ts";
import type { StandInState } from "../state.ts";
import { type DeliveryOptions, deliver, type SendResult } from "./http.ts";
import {
  type BlockActionInput,
  blockActions,
  blockSuggestion,
  type OptionsInput,
  type ViewSubmissionInput,
  viewSubmission,
  type Who,
} from "./interactions.ts";
import { actorFor, mintResponseUrl, mintTrigger } from "./mint.ts";
import { commandForm, eventCallback, interactionForm, VERIFICATION_TOKEN } from "./payloads.ts";
import { applyViewAck } from "./view-ack.ts";

export interface CommandInput extends Who, DeliveryOptions {
  channelId: string;
  text: string;
  /** Default `/insights`. */
  command?: string;
}

export interface EventInput extends DeliveryOptions {
  teamId: string;
  enterpriseId?: string;
  event: Record<string, unknown>;
  /** Reuse an event id to simulate a redelivery (pair with `retryNum`). */
  eventId?: string;
}

export interface ClientEnv {
  state: StandInState;
  appId: string;
  baseUrl: string;
  appUrl: string;
  signingSecret: string;
}

const FORM = "application/x-www-form-urlencoded";

/** What a user gets for a command the app cannot have: Slack never calls the app. */
function notOffered(command: string): SendResult {
  return {
    status: 0,
    body: undefined,
    text: "",
    headers: {},
    ackMs: 0,
    responseUrl: undefined,
    triggerId: undefined,
    error: `missing_scope: commands (Slack does not offer ${command} in this workspace)`,
  };
}
const JSON_TYPE = "application/json";

/**
 * The side of the stand-in that plays Slack towards the app: every delivery signed (or deliberately
 * not), with response_url and trigger_id minted by the stand-in so later API calls can be checked.
 */
export function createSlackClient(env: ClientEnv) {
  const { state, appId } = env;
  const send = async (
    body: string,
    contentType: string,
    o: DeliveryOptions,
    ids: Partial<SendResult> = {},
  ) => {
    const res = await deliver({ url: env.appUrl, secret: env.signingSecret, body, contentType, options: o });
    return { ...res, responseUrl: ids.responseUrl, triggerId: ids.triggerId } satisfies SendResult;
  };

  return {
    /** A slash command (form-encoded), by default `/insights`. */
    async sendCommand(o: CommandInput): Promise<SendResult> {
      const ws = state.workspaces.get(o.teamId);
      // Slash commands exist in a workspace only where the app holds the `commands` scope.
      if (ws && !ws.scopes.includes("commands")) return notOffered(o.command ?? "/insights");
      const channel = ws?.channels.get(o.channelId);
      const responseUrl = mintResponseUrl(state, env.baseUrl, {
        teamId: o.teamId,
        userId: o.userId,
        channelId: o.channelId,
        target: undefined,
      });
      const triggerId = mintTrigger(state, o.teamId, o.userId);
      const actor = actorFor(state, appId, o.teamId, o.userId, o.enterpriseId);
      const form = commandForm(actor, {
        command: o.command ?? "/insights",
        text: o.text,
        channelId: o.channelId,
        channelName: channel?.isIm ? "directmessage" : (channel?.name ?? o.channelId),
        responseUrl,
        triggerId,
      });
      return send(form, FORM, o, { responseUrl, triggerId });
    },

    /** A block_actions interaction from a message (response_url minted) or from a view. */
    async sendBlockAction(o: BlockActionInput & DeliveryOptions): Promise<SendResult> {
      const built = blockActions(state, appId, env.baseUrl, o);
      return send(interactionForm(built.payload), FORM, o, built);
    },

    /** A view_submission; the app's answer is applied to the stored view as Slack would. */
    async sendViewSubmission(o: ViewSubmissionInput & DeliveryOptions): Promise<SendResult> {
      const built = viewSubmission(state, appId, o);
      const res = await send(interactionForm(built.payload), FORM, o, built);
      applyViewAck(state, String((built.payload.view as { id: string }).id), res.status, res.body);
      return res;
    },

    /** A block_suggestion (options load for an external select); the answer is the options JSON. */
    async sendOptions(o: OptionsInput & DeliveryOptions): Promise<SendResult> {
      return send(interactionForm(blockSuggestion(state, appId, o)), FORM, o);
    },

    /** An Events API `event_callback` (JSON). */
    async sendEvent(o: EventInput): Promise<SendResult> {
      const ws = state.workspaces.get(o.teamId);
      const actor = actorFor(state, appId, o.teamId, ws?.installerUserId ?? "U0UNKNOWN", o.enterpriseId);
      const body = eventCallback(actor, {
        event: o.event,
        eventId: o.eventId ?? state.ids.eventId(),
        eventTimeSec: Math.floor(state.now() / 1000),
        botUserId: ws?.botUserId ?? "U0UNKNOWN",
      });
      return send(JSON.stringify(body), JSON_TYPE, o);
    },

    /** Slack's endpoint check; the app must echo `challenge`. */
    async sendUrlVerification(o: DeliveryOptions & { challenge?: string } = {}): Promise<SendResult> {
      const body = {
        token: VERIFICATION_TOKEN,
        challenge: o.challenge ?? randomHex(16),
        type: "url_verification",
      };
      return send(JSON.stringify(body), JSON_TYPE, o);
    },
  };
}

export type SlackClientSide = ReturnType<typeof createSlackClient>;
