import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setEditWindow } from "./api/chat.ts";
import type { OAuthSettings } from "./api/context.ts";
import type { ApiEnv } from "./api/dispatch.ts";
import { type HistoryTier, setHistoryTier } from "./api/history.ts";
import { type AssistantClient, createAssistantClient } from "./assistant/client.ts";
import { assistantState, clearAssistant } from "./assistant/state.ts";
import { createSlackClient, type SlackClientSide } from "./client/client.ts";
import type { DeliveryOptions } from "./client/http.ts";
import { mintTrigger } from "./client/mint.ts";
import type { Transport } from "./client/transport.ts";
import { type Control, createControl } from "./control.ts";
import { type AppManifest, loadManifest } from "./manifest/manifest.ts";
import { createQueries, type Queries } from "./queries.ts";
import { addAppToken, createReachControls, DEMO_APP_TOKEN, type ReachControls } from "./reach.ts";
import { defaultWorkspace } from "./seed.ts";
import { API_PATH, createHandler } from "./server.ts";
import { createSocketSide } from "./socket/server.ts";
import { addWorkspaceTo, clearState, createState } from "./state.ts";
import { mintOAuthCode } from "./tokens.ts";
import type { RateLimitSettings, WorkspaceSeed } from "./types.ts";

export interface SlackStandInOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The app's signing secret; every delivery to the app is signed with it. */
  signingSecret: string;
  /** Where Slack would deliver commands, interactions and events, e.g. `http://127.0.0.1:3000/slack/events`. */
  appUrl: string;
  /** Default: on, 1 chat.postMessage per second per channel, as Slack. */
  rateLimit?: Partial<RateLimitSettings>;
  /** Default: `[defaultWorkspace()]`. */
  workspaces?: WorkspaceSeed[];
  /** The app's id in payloads and API replies. Default `A0INSIGHTS`. */
  appId?: string;
  /** Client credentials to check in oauth.v2.access (unchecked when unset), token lifetime and grace. */
  oauth?: Partial<OAuthSettings>;
  /**
   * `conversations.history` limits: a non-Marketplace app (default; 1 call a minute per workspace,
   * 15 messages a page, as Slack since 2025) or a Marketplace one (Tier 3).
   */
  history?: HistoryTier;
  /** The stand-in's clock (trigger and response_url expiry, rate limits, token lifetimes). Default Date.now. */
  now?: () => number;
  /** How deliveries reach the app: `http` (default) POSTs to `appUrl`; `socket` sends over Socket Mode. */
  transport?: Transport;
  /** The app-level token apps.connections.open accepts. Default `DEMO_APP_TOKEN`. */
  appToken?: string;
  /** The app's manifest (custom steps, unfurl domains). Default: the repository's manifest.yaml. */
  manifest?: AppManifest;
  /** Hosts whose links also reach the app, besides the manifest's unfurl_domains (the sandbox's platform). */
  unfurlDomains?: string[];
  /**
   * How long an uploaded file stays unprocessed after files.completeUploadExternal (files.info shows
   * no mimetype; an image block naming it is `invalid_blocks`). Default 300 ms.
   */
  fileProcessingMs?: number;
  /**
   * What is kept of each call and message. `full` (default): every argument, and each message with its
   * blocks. `lean`: a call's short arguments and its metadata, a message without its blocks — for
   * benches of 100,000 posts, whose record would otherwise hold gigabytes and make the stand-in's
   * garbage collector, not the app, set the pace. Every check runs the same in both.
   */
  record?: "full" | "lean";
}

/** A running stand-in: Slack's Web API and response_urls on one side, Slack's deliveries on the other. */
export interface SlackStandIn extends Control, Queries, SlackClientSide, ReachControls, AssistantClient {
  /** `${baseUrl}/api/`: give this to the app as SLACK_API_URL. */
  readonly apiUrl: string;
  /** `http://host:port` of the stand-in. */
  readonly baseUrl: string;
  /** Points deliveries at another app URL (when the app's port is known only after the stand-in starts). */
  setAppUrl(url: string): void;
  /** Switches how later deliveries reach the app (HTTP or Socket Mode). */
  setTransport(transport: Transport): void;
  readonly transport: Transport;
  /** Switches the conversations.history tier (and forgets the counts). */
  setHistoryTier(tier: HistoryTier): void;
  /** A one-time OAuth code for `teamId` (what the authorize redirect would carry). */
  mintOAuthCode(teamId: string, userId?: string): string;
  /** A trigger_id as if the user had just interacted (valid 3 s). */
  mintTriggerId(teamId: string, userId: string): string;
  close(): Promise<void>;
}

/**
 * Starts the Slack stand-in on a local port.
 *
 * @example
 * const slack = await startSlackStandIn({ signingSecret, appUrl: "http://127.0.0.1:3000/slack/events" });
 * // app: SLACK_API_URL=slack.apiUrl, SLACK_BOT_TOKEN=DEMO.botToken
 * const r = await slack.sendCommand({ teamId: DEMO.teamId, userId: DEMO.member, channelId: DEMO.general, text: "last7d" });
 * await slack.waitFor(() => slack.responses(r.responseUrl).length > 0);
 */
export async function startSlackStandIn(o: SlackStandInOptions): Promise<SlackStandIn> {
  const rateLimit: RateLimitSettings = { enabled: true, perChannelPerSecond: 1, ...o.rateLimit };
  const seeds = o.workspaces ?? [defaultWorkspace()];
  const fileProcessingMs = o.fileProcessingMs ?? 300;
  const state = createState(o.now ?? Date.now, rateLimit, fileProcessingMs);
  state.lean = o.record === "lean";
  state.manifest = o.manifest ?? loadManifest();
  const appId = o.appId ?? "A0INSIGHTS";
  const socket = createSocketSide({ state, appId });
  const reseed = () => {
    clearState(state, rateLimit);
    state.fileProcessingMs = fileProcessingMs;
    socket.clearRecords();
    setEditWindow(state, null);
    clearAssistant(state);
    for (const seed of seeds) addWorkspaceTo(state, seed);
    addAppToken(state, o.appToken ?? DEMO_APP_TOKEN, appId);
  };
  reseed();
  setHistoryTier(state, o.history ?? "non_marketplace");
  const env: ApiEnv = {
    state,
    baseUrl: "",
    appId,
    oauth: {
      clientId: undefined,
      clientSecret: undefined,
      tokenTtlSec: 43_200,
      rotationGraceMs: 60_000,
      ...o.oauth,
    },
  };
  const server = createServer(createHandler(env));
  server.on("upgrade", (req, sock, head) => {
    if (!socket.handleUpgrade(req, sock, head)) sock.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  env.baseUrl = `http://${o.host ?? "127.0.0.1"}:${port}`;
  const clientEnv = {
    state,
    appId: env.appId,
    baseUrl: env.baseUrl,
    appUrl: o.appUrl,
    signingSecret: o.signingSecret,
    transport: o.transport ?? ("http" as Transport),
    socket,
    unfurlDomains: (o.unfurlDomains ?? []).map((d) => d.toLowerCase()),
  };
  const client = createSlackClient(clientEnv);
  const sendEvent = (teamId: string, event: Record<string, unknown>, o: DeliveryOptions = {}) =>
    client.sendEvent({ ...o, teamId, event });
  assistantState(state).deliver = async (teamId, event) => (await sendEvent(teamId, event)).status;
  return {
    apiUrl: `${env.baseUrl}${API_PATH}`,
    baseUrl: env.baseUrl,
    ...createControl(state, reseed),
    ...createQueries(state),
    ...client,
    ...createAssistantClient(state, (teamId, event, o) => sendEvent(teamId, event, o)),
    ...createReachControls(state, socket),
    setHistoryTier: (tier) => setHistoryTier(state, tier),
    setAppUrl(url: string) {
      clientEnv.appUrl = url;
    },
    setTransport(transport: Transport) {
      clientEnv.transport = transport;
    },
    get transport() {
      return clientEnv.transport;
    },
    mintOAuthCode: (teamId, userId) =>
      mintOAuthCode(state, teamId, userId ?? state.workspaces.get(teamId)?.installerUserId ?? "U0INSTALL"),
    mintTriggerId: (teamId, userId) => mintTrigger(state, teamId, userId),
    close: async () => {
      await socket.close();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      });
    },
  };
}
