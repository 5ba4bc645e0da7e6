import { RESPONSE_PATH } from "./client/mint.ts";
import type { StandInState } from "./state.ts";
import type {
  ChannelMessage,
  EphemeralMessage,
  RecordedCall,
  ResponseRecord,
  StoredFile,
  StoredView,
} from "./types.ts";
import { dumpState, type WaitOptions, waitFor } from "./wait.ts";

export interface CallFilter {
  method?: string;
  teamId?: string;
  ok?: boolean;
  error?: string;
}

function matches(c: RecordedCall, f: CallFilter): boolean {
  return (
    (f.method === undefined || c.method === f.method) &&
    (f.teamId === undefined || c.teamId === f.teamId) &&
    (f.ok === undefined || c.ok === f.ok) &&
    (f.error === undefined || c.error === f.error)
  );
}

/** Read-only views of what the stand-in recorded, for assertions. */
export function createQueries(state: StandInState) {
  return {
    /** Every recorded call in order, optionally filtered by fields or a predicate. */
    calls(filter: CallFilter | ((c: RecordedCall) => boolean) = {}): RecordedCall[] {
      return state.calls.filter((c) => (typeof filter === "function" ? filter(c) : matches(c, filter)));
    },
    /**
     * The calls recorded from position `from` on (a reset starts again from 0): a reader that keeps
     * its own count reads each call once, not the whole record every time.
     */
    callsFrom(from: number): { calls: RecordedCall[]; next: number } {
      const start = from > state.calls.length ? 0 : from;
      return { calls: state.calls.slice(start), next: state.calls.length };
    },
    /** A channel's current history in ts order (edits applied, deletions gone). */
    messages: (channelId: string): ChannelMessage[] => [...(state.messages.get(channelId) ?? [])],
    /** Ephemeral messages still shown, for one user or everyone. */
    ephemerals: (userId?: string): EphemeralMessage[] =>
      state.ephemerals.filter((e) => !e.deleted && (userId === undefined || e.userId === userId)),
    /** response_url posts; pass an id or the whole url to narrow to one. */
    responses(responseIdOrUrl?: string): ResponseRecord[] {
      const id = responseIdOrUrl?.includes(RESPONSE_PATH)
        ? responseIdOrUrl.split(RESPONSE_PATH).pop()
        : responseIdOrUrl;
      return state.responses.filter((r) => id === undefined || r.responseId === id);
    },
    views: (): StoredView[] => [...state.views.values()],
    homeView(userId: string): StoredView | undefined {
      return state.views.get(state.homeViews.get(userId) ?? "");
    },
    files: (): StoredFile[] => [...state.files.values()],
    waitFor: <T>(
      predicate: () => T | undefined | null | false | Promise<T | undefined | null | false>,
      options?: WaitOptions,
    ): Promise<T> => waitFor(state, predicate, options),
    /** A readable summary of recorded state, for debugging a failing test. */
    dump: (): string => dumpState(state),
  };
}

export type Queries = ReturnType<typeof createQueries>;
