import type { StandInState } from "../state.ts";

/**
 * What the stand-in remembers of the agent messaging experience: thread status lines, the
 * suggested prompts of each DM, and the message events it sent the app about the app's own posts.
 */

export interface StatusRecord {
  channelId: string;
  threadTs: string;
  status: string;
  at: number;
}

export interface PromptsRecord {
  channelId: string;
  title: string | undefined;
  prompts: { title: string; message: string }[];
  at: number;
}

/** A message event the stand-in delivered (or tried to) on its own, as Slack does. */
export interface EchoRecord {
  teamId: string;
  channelId: string;
  ts: string;
  /** HTTP status of the delivery (0: not delivered), once known. */
  status: number | undefined;
}

export interface AssistantState {
  /** Every status set, in order (the current one of a thread is its last, unless cleared). */
  statuses: StatusRecord[];
  /** Current status per `channel thread_ts`, and when it was set. */
  current: Map<string, StatusRecord>;
  prompts: Map<string, PromptsRecord>;
  /** Calls refused silently (Slack's agent experience ignores a thread_ts on setSuggestedPrompts). */
  ignored: { method: string; reason: string; at: number }[];
  echoes: EchoRecord[];
  /** Whether posts in a DM come back to the app as message.im events (Slack's behaviour; on). */
  echo: boolean;
  /** Accepted calls per `method team`, epoch ms, for the rate windows. */
  calls: Map<string, number[]>;
  /** Delivers an event to the app (set when the stand-in's client side exists). */
  deliver?: (teamId: string, event: Record<string, unknown>) => Promise<number>;
}

const states = new WeakMap<StandInState, AssistantState>();

export function assistantState(state: StandInState): AssistantState {
  let a = states.get(state);
  if (!a) {
    a = {
      statuses: [],
      current: new Map(),
      prompts: new Map(),
      ignored: [],
      echoes: [],
      echo: true,
      calls: new Map(),
    };
    states.set(state, a);
  }
  return a;
}

/** Back to nothing recorded (the stand-in's reset); the delivery hook stays. */
export function clearAssistant(state: StandInState): void {
  const a = assistantState(state);
  a.statuses.length = 0;
  a.current.clear();
  a.prompts.clear();
  a.ignored.length = 0;
  a.echoes.length = 0;
  a.calls.clear();
  a.echo = true;
}

/** How long a status line shows when no message follows: Slack removes it after two minutes. */
export const STATUS_TTL_MS = 120_000;

export const threadKey = (channelId: string, threadTs: string) => `${channelId} ${threadTs}`;

/** The status a thread shows now: set, not cleared, not followed by the app's message, not expired. */
export function statusOf(state: StandInState, channelId: string, threadTs: string): string | undefined {
  const s = assistantState(state).current.get(threadKey(channelId, threadTs));
  if (!s || s.status === "" || state.now() - s.at > STATUS_TTL_MS) return undefined;
  return s.status;
}

/** The app posted in a thread: its status line goes, as Slack removes it. */
export function clearStatusOnPost(
  state: StandInState,
  channelId: string,
  threadTs: string | undefined,
): void {
  if (threadTs === undefined) return;
  assistantState(state).current.delete(threadKey(channelId, threadTs));
}
