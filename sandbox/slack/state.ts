import type { FunctionExecution } from "./functions/types.ts";
import { createIdMint, type IdMint } from "./ids.ts";
import type { AppManifest } from "./manifest/manifest.ts";
import type { AppTokenRecord, ConnectionTicket } from "./socket/types.ts";
import type {
  Channel,
  ChannelMessage,
  EphemeralMessage,
  RateLimitSettings,
  RecordedCall,
  ResponseRecord,
  StoredFile,
  StoredView,
  User,
  Workspace,
  WorkspaceSeed,
} from "./types.ts";
import type { LinkShare } from "./unfurl/types.ts";
import { toWorkspace } from "./workspace.ts";

/** Why a token stopped working decides the error Slack answers with. */
export interface TokenRecord {
  token: string;
  teamId: string;
  /** `workflow`: a custom step's just-in-time token (`xwfp-`), alive while its execution runs. */
  kind: "bot" | "workflow";
  /** Epoch ms after which the token answers `token_expired`; undefined = never. */
  expiresAt: number | undefined;
  revokedWith: string | undefined;
}

export interface TriggerRecord {
  id: string;
  teamId: string;
  userId: string;
  createdAt: number;
  used: boolean;
  /** Set when the trigger came from inside a modal, so views.push knows the stack. */
  viewId: string | undefined;
}

/** Where a response_url posts land and what `replace_original` / `delete_original` act on. */
export interface ResponseUrlRecord {
  id: string;
  teamId: string;
  userId: string;
  channelId: string | undefined;
  createdAt: number;
  uses: number;
  /** The message the action came from (block actions) or the last one this url posted. */
  target: { channelId: string; ts: string; ephemeral: boolean } | undefined;
}

export interface Fault {
  kind: "error" | "http";
  error: string;
  status: number;
  retryAfter: number | undefined;
  remaining: number;
}

/** Everything the stand-in remembers; one instance per stand-in, all in memory. */
/** A Web API call that waits, unread, until the test lets it through. */
export interface HeldCall {
  arrive(): void;
  released: Promise<void>;
  release(): void;
}

export interface StandInState {
  readonly now: () => number;
  readonly ids: IdMint;
  workspaces: Map<string, Workspace>;
  tokens: Map<string, TokenRecord>;
  refreshTokens: Map<string, { teamId: string; used: boolean }>;
  /** `scopes`: what the authorize URL asked for; the install grants exactly those. */
  oauthCodes: Map<
    string,
    { teamId: string; userId: string; createdAt: number; used: boolean; scopes: string[] | undefined }
  >;
  calls: RecordedCall[];
  messages: Map<string, ChannelMessage[]>;
  ephemerals: EphemeralMessage[];
  responseUrls: Map<string, ResponseUrlRecord>;
  responses: ResponseRecord[];
  views: Map<string, StoredView>;
  homeViews: Map<string, string>;
  files: Map<string, StoredFile>;
  triggers: Map<string, TriggerRecord>;
  faults: Map<string, Fault[]>;
  /** Web API methods answered this many ms after the call is recorded (a slow Slack). */
  latency: Map<string, number>;
  /** Web API calls held before they are read, per method, first in first out (see Control.holdNext). */
  holds: Map<string, HeldCall[]>;
  rateLimit: RateLimitSettings;
  postTimes: Map<string, number[]>;
  /** Socket Mode: app-level tokens (`xapp-`) and the one-time tickets of apps.connections.open. */
  appTokens: Map<string, AppTokenRecord>;
  connectionTickets: Map<string, ConnectionTicket>;
  /** Custom steps: every function_executed sent, by function_execution_id. */
  functionExecutions: Map<string, FunctionExecution>;
  /** Links people posted to the app's unfurl domains, by unfurl_id, and what the app unfurled. */
  linkShares: Map<string, LinkShare>;
  /** The app's manifest as Slack knows it (custom steps, unfurl domains); set when the stand-in starts. */
  manifest: AppManifest;
  /** How long an uploaded file stays unprocessed after its upload completed, ms. */
  fileProcessingMs: number;
  /** Block types every check refuses as unsupported, until cleared (Control.refuseBlocks). */
  refusedBlocks: Set<string>;
  /** Keep calls' short arguments and messages without blocks (SlackStandInOptions.record). */
  lean: boolean;
}

export function createState(
  now: () => number,
  rateLimit: RateLimitSettings,
  fileProcessingMs: number,
): StandInState {
  return {
    now,
    ids: createIdMint(now),
    workspaces: new Map(),
    tokens: new Map(),
    refreshTokens: new Map(),
    oauthCodes: new Map(),
    calls: [],
    messages: new Map(),
    ephemerals: [],
    responseUrls: new Map(),
    responses: [],
    views: new Map(),
    homeViews: new Map(),
    files: new Map(),
    triggers: new Map(),
    faults: new Map(),
    latency: new Map(),
    holds: new Map(),
    rateLimit: { ...rateLimit },
    postTimes: new Map(),
    appTokens: new Map(),
    connectionTickets: new Map(),
    functionExecutions: new Map(),
    linkShares: new Map(),
    manifest: {
      functions: new Map(),
      unfurlDomains: [],
      botScopes: [],
      botEvents: [],
      messagesTab: "off",
      agentExperience: null,
    },
    fileProcessingMs,
    refusedBlocks: new Set(),
    lean: false,
  };
}

export function addWorkspaceTo(state: StandInState, seed: WorkspaceSeed): Workspace {
  const ws = toWorkspace(seed, Math.floor(state.now() / 1000));
  state.workspaces.set(ws.teamId, ws);
  state.tokens.set(seed.botToken, {
    token: seed.botToken,
    teamId: ws.teamId,
    kind: "bot",
    expiresAt: undefined,
    revokedWith: undefined,
  });
  return ws;
}

/** Channel ids are unique across workspaces here, as they are in Slack. */
export function findChannel(state: StandInState, id: string): Channel | undefined {
  for (const ws of state.workspaces.values()) {
    const ch = ws.channels.get(id);
    if (ch) return ch;
  }
  return undefined;
}

export function findUser(state: StandInState, id: string): User | undefined {
  for (const ws of state.workspaces.values()) {
    const u = ws.users.get(id);
    if (u) return u;
  }
  return undefined;
}

/** Empties every collection in place (other modules hold this same object) and restores the rate limit. */
export function clearState(state: StandInState, rateLimit: RateLimitSettings): void {
  for (const value of Object.values(state)) {
    if (value instanceof Map) value.clear();
  }
  state.calls.length = 0;
  state.ephemerals.length = 0;
  state.responses.length = 0;
  state.refusedBlocks.clear();
  Object.assign(state.rateLimit, rateLimit);
}
