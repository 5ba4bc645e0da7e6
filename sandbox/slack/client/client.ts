import { type StepRun, startExecution } from "../functions/execute.ts";
import { randomHex } from "../ids.ts";
import { receiveCommandAck } from "../response-url.ts";
import type { SocketSide } from "../socket/server.ts";
import type { StandInState } from "../state.ts";
import { type LinkPost, postLinks } from "../unfurl/share.ts";
import type { Shape } from "./documented.ts";
import type { DeliveryOptions, SendResult } from "./http.ts";
import {
  type BlockActionInput,
  blockActions,
  blockSuggestion,
  type OptionsInput,
  type ViewSubmissionInput,
  viewSubmission,
  type Who,
} from "./interactions.ts";
import { actorFor, mintResponseUrl, mintTrigger, RESPONSE_PATH } from "./mint.ts";
import { commandForm, eventCallback, interactionForm, VERIFICATION_TOKEN } from "./payloads.ts";
import { type Transport, transmit } from "./transport.ts";
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
  /** HTTP POSTs to `appUrl`, or envelopes over the app's Socket Mode connection. */
  transport: Transport;
  socket: SocketSide;
  /** Hosts whose links reach the app besides the manifest's `unfurl_domains` (the sandbox's platform). */
  unfurlDomains: string[];
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
    const delivery = { url: env.appUrl, secret: env.signingSecret, body, contentType, options: o };
    const res = await transmit(env.transport, env.socket, delivery);
    return { ...res, responseUrl: ids.responseUrl, triggerId: ids.triggerId } satisfies SendResult;
  };

  /** A response_url and trigger_id for a person's request in a channel, and who they are. */
  const mintFor = (o: Who & { channelId: string }) => ({
    responseUrl: mintResponseUrl(state, env.baseUrl, {
      teamId: o.teamId,
      userId: o.userId,
      channelId: o.channelId,
      target: undefined,
    }),
    triggerId: mintTrigger(state, o.teamId, o.userId),
    actor: actorFor(state, appId, o.teamId, o.userId, o.enterpriseId),
  });

  const client = {
    /** A slash command (form-encoded), by default `/insights`. */
    async sendCommand(o: CommandInput): Promise<SendResult> {
      const ws = state.workspaces.get(o.teamId);
      // Slash commands exist in a workspace only where the app holds the `commands` scope.
      if (ws && !ws.scopes.includes("commands")) return notOffered(o.command ?? "/insights");
      const channel = ws?.channels.get(o.channelId);
      const { responseUrl, triggerId, actor } = mintFor(o);
      const form = commandForm(actor, {
        command: o.command ?? "/insights",
        text: o.text,
        channelId: o.channelId,
        channelName: channel?.isIm ? "directmessage" : (channel?.name ?? o.channelId),
        responseUrl,
        triggerId,
      });
      const res = await send(form, FORM, o, { responseUrl, triggerId });
      if (res.status === 200)
        receiveCommandAck(state, env.baseUrl, responseUrl.split(RESPONSE_PATH).pop() ?? "", res.body);
      return res;
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

    /**
     * One payload of the documented catalogue (documented.ts), signed and delivered like Slack
     * would, with a minted response_url and trigger_id where the shape carries them.
     */
    async sendShape(shape: Shape, o: Who & DeliveryOptions & { channelId: string }): Promise<SendResult> {
      const ws = state.workspaces.get(o.teamId);
      const { responseUrl, triggerId, actor } = mintFor(o);
      const nowSec = Math.floor(state.now() / 1000);
      const minted = {
        responseUrl,
        triggerId,
        channelId: o.channelId,
        ts: `${nowSec}.000200`,
        botUserId: ws?.botUserId ?? "U0UNKNOWN",
      };
      if (shape.kind === "interaction")
        return send(interactionForm(shape.payload(actor, minted)), FORM, o, { responseUrl, triggerId });
      const body =
        shape.kind === "outer"
          ? shape.body(actor, minted)
          : eventCallback(actor, {
              event: shape.event(actor, minted),
              eventId: state.ids.eventId(),
              eventTimeSec: nowSec,
              botUserId: minted.botUserId,
            });
      return send(JSON.stringify(body), JSON_TYPE, o);
    },

    /**
     * Runs a custom step as Workflow Builder would: a `function_executed` event with the inputs and
     * a fresh `xwfp-` token. The run's outcome lands in `stepExecution(executionId)`.
     */
    async executeStep(o: StepRun & DeliveryOptions): Promise<SendResult & { executionId: string }> {
      const { execution, event } = startExecution(state, appId, o);
      const ws = state.workspaces.get(o.teamId);
      const actor = actorFor(state, appId, o.teamId, ws?.installerUserId ?? "U0UNKNOWN");
      const body = eventCallback(actor, {
        event,
        eventId: state.ids.eventId(),
        eventTimeSec: Math.floor(state.now() / 1000),
        botUserId: ws?.botUserId ?? "U0UNKNOWN",
      });
      return { ...(await send(JSON.stringify(body), JSON_TYPE, o)), executionId: execution.id };
    },

    /**
     * A person posts a message with links. Links to the app's unfurl domains (the manifest's, plus
     * `unfurlDomains`) bring a link_shared event to the app; `delivered` is undefined when none did.
     */
    async postLinks(o: LinkPost & DeliveryOptions) {
      const domains = [...state.manifest.unfurlDomains, ...env.unfurlDomains];
      const { ts, share, event } = postLinks(state, o, domains);
      // Slack sends link_shared only to an app granted links:read in that workspace.
      const ws = state.workspaces.get(o.teamId);
      if (!share || !event || (ws && !ws.scopes.includes("links:read")))
        return { ts, unfurlId: undefined, delivered: undefined };
      const delivered = await client.sendEvent({ ...o, event });
      return { ts, unfurlId: share.unfurlId, delivered };
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
  return client;
}

export type SlackClientSide = ReturnType<typeof createSlackClient>;
