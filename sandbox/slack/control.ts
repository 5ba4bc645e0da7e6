import { AppError } from "../../src/errors.ts";
import { setEditWindow } from "./api/chat.ts";
import { addFault } from "./faults.ts";
import { addWorkspaceTo, findChannel, type StandInState } from "./state.ts";
import { revokeToken } from "./tokens.ts";
import type { Channel, ChannelSeed, RateLimitSettings, UserSeed, Workspace, WorkspaceSeed } from "./types.ts";
import { toChannel, toUser } from "./workspace.ts";

export interface ChannelChange {
  archived?: boolean;
  botMember?: boolean;
  isPrivate?: boolean;
  name?: string;
  members?: string[];
}

function workspace(state: StandInState, teamId: string): Workspace {
  const ws = state.workspaces.get(teamId);
  if (!ws) throw new AppError("unknown_team", `the Slack stand-in has no workspace ${teamId}`);
  return ws;
}

function channel(state: StandInState, id: string): Channel {
  const ch = findChannel(state, id);
  if (!ch) throw new AppError("unknown_channel", `the Slack stand-in has no channel ${id}`);
  return ch;
}

/** Test-side levers on the stand-in's world; each changes state the API then reflects. */
export function createControl(state: StandInState, reseed: () => void) {
  return {
    addWorkspace: (seed: WorkspaceSeed): void => void addWorkspaceTo(state, seed),
    addUser(teamId: string, user: UserSeed): void {
      workspace(state, teamId).users.set(user.id, toUser(teamId, user));
    },
    addChannel(teamId: string, seed: ChannelSeed): void {
      const ws = workspace(state, teamId);
      ws.channels.set(seed.id, toChannel(ws, seed, Math.floor(state.now() / 1000)));
    },
    setChannel(id: string, change: ChannelChange): void {
      const ch = channel(state, id);
      if (change.archived !== undefined) ch.archived = change.archived;
      if (change.botMember !== undefined) ch.botMember = change.botMember;
      if (change.isPrivate !== undefined) ch.isPrivate = change.isPrivate;
      if (change.name !== undefined) ch.name = change.name;
      if (change.members !== undefined) ch.members = new Set(change.members);
    },
    /** Removes the channel and its history; the API then answers `channel_not_found`. */
    deleteChannel(id: string): void {
      const ch = channel(state, id);
      state.workspaces.get(ch.teamId)?.channels.delete(id);
      state.messages.delete(id);
    },
    /** Later calls with the token answer `error` (default `invalid_auth`). False if the token is unknown. */
    revokeToken: (token: string, error?: string): boolean => revokeToken(state, token, error),
    /** The next `times` calls of `method` answer `{ ok: false, error }`. */
    injectError(method: string, error: string, times = 1): void {
      addFault(state, method, { kind: "error", error, status: 200, retryAfter: undefined }, times);
    },
    /** The next `times` calls of `method` answer HTTP `status` (429 carries `Retry-After`). */
    injectHttp(method: string, status: number, o: { retryAfter?: number; times?: number } = {}): void {
      const retryAfter = o.retryAfter ?? (status === 429 ? 1 : undefined);
      const error = status === 429 ? "ratelimited" : status >= 500 ? "service_unavailable" : `http_${status}`;
      addFault(state, method, { kind: "http", error, status, retryAfter }, o.times ?? 1);
    },
    /**
     * Calls of `method` from now on are answered `ms` after they are recorded (0: at once), as a
     * distant Slack would: whoever waits on the answer cannot go on before then.
     */
    setLatency(method: string, ms: number): void {
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`latency must be a number of ms >= 0, got ${ms}`);
      if (ms === 0) state.latency.delete(method);
      else state.latency.set(method, ms);
    },
    /**
     * The next call of `method` waits, unread, until `release()`: a request still on its way, which
     * Slack applies only once it arrives, after calls sent later (`arrived` resolves when it is here).
     * Later calls pass.
     */
    holdNext(method: string): { arrived: Promise<void>; release(): void } {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((r) => {
        arrive = r;
      });
      const released = new Promise<void>((r) => {
        release = r;
      });
      state.holds.set(method, [...(state.holds.get(method) ?? []), { arrive, released, release }]);
      return { arrived, release };
    },
    /** The bot token's scopes in the workspace (what an install granted); calls needing others fail. */
    setScopes(teamId: string, scopes: string[]): void {
      workspace(state, teamId).scopes = [...scopes];
    },
    /** Files uploaded from now on stay unprocessed this long (a large value: never ready in a test). */
    setFileProcessing(ms: number): void {
      state.fileProcessingMs = ms;
    },
    /**
     * The workspace's message edit setting: chat.update of a message older than `ms` answers
     * `edit_window_closed`; null (the default) lets every message be edited.
     */
    setEditWindow(ms: number | null): void {
      setEditWindow(state, ms);
    },
    /**
     * Every later message, view and unfurl carrying a block of one of `types` is refused with
     * `invalid_blocks` naming it (`unsupported type: table [json-pointer:/blocks/7/type]`), as a
     * workspace or client without that block would; an empty list accepts them again.
     */
    refuseBlocks(types: string[]): void {
      state.refusedBlocks = new Set(types);
    },
    setRateLimit(change: Partial<RateLimitSettings>): void {
      Object.assign(state.rateLimit, change);
      state.postTimes.clear();
    },
    /** Forgets every recorded call, message, view, file and fault, and restores the seeds. */
    reset(): void {
      for (const held of state.holds.values()) for (const h of held) h.release();
      reseed();
    },
  };
}

export type Control = ReturnType<typeof createControl>;
