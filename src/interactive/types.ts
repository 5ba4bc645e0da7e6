/**
 * Work handed off the request path. The process that receives a Slack request verifies it,
 * acknowledges it and hands the rest over as an {@link InteractiveJob}: to worker processes through
 * a Redis stream, or to a pool of threads in a single-process install. Where it runs, the access
 * check, the handler and the answer happen.
 */

/** Which entry of the route table runs the job. */
export type InteractiveRoute =
  | { kind: "command"; name: string }
  | { kind: "action"; id: string }
  | { kind: "event"; id: string }
  | { kind: "function"; id: string }
  /** A modal's submission whose work follows its answer (the modal has closed). */
  | { kind: "view"; id: string }
  /** A message a person sent the app (a DM, a mention); `id` is the inner event's type. */
  | { kind: "message"; id: string };

/** A message a person sent the app, as far as answering it goes (its author is the job's person). */
export interface MessageSaid {
  /** The conversation: the app's DM with the person (`D…`) or a channel it was mentioned in. */
  channelId: string;
  /** The message's own ts, and the thread it belongs to (its own ts when it started none). */
  ts: string;
  threadTs: string;
  /** As Slack sent it (mentions and escapes included). */
  text: string;
  /** The app's user id, whose mention addresses it. */
  botUserId?: string;
  dm: boolean;
}

/** Where a request came from, as far as answering it goes. */
export interface RequestSurface {
  /** `message`: a click on a message; `view`: on the Home tab or in a modal; absent for commands and events. */
  container?: "message" | "view";
  /** The conversation the request names. */
  channelId?: string;
  /** The clicked message is ephemeral (only those can be redrawn for one person). */
  ephemeral?: boolean;
  /** The clicked message. */
  messageTs?: string;
  /** The thread the clicked message is in (the parent's ts), when it is a reply. */
  threadTs?: string;
  viewId?: string;
  /** `home` or `modal`. */
  viewType?: string;
  viewCallbackId?: string;
}

/**
 * One handed-off request: ids, where it came from, what it asks and where to answer; never a token
 * or an API key (the executor looks the bot token up itself). Every field is named here, so what
 * crosses to the executor is exactly this and nothing of the Slack payload besides.
 */
export interface InteractiveJob {
  /** The format's version: an executor refuses one it does not know rather than guessing. */
  v: 1;
  /** Unique per Slack request: the key of the request's claim. */
  id: string;
  route: InteractiveRoute;
  /** The workspace, as the request names it. */
  team: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean };
  /** The person (empty for an event without one). */
  userId: string;
  /** When the receiving process got the request (epoch ms): the digest's "now" and the response_url's age. */
  receivedAt: number;
  surface: RequestSurface;
  /** Where Slack takes answers for half an hour (commands, clicks on messages). A capability: never logged. */
  responseUrl?: string;
  /**
   * A "busy, your answer is coming" note already went out: in the command's ack (the answer then
   * replaces it), or on the response_url (one of its five uses).
   */
  notice?: "ack" | "response_url";
  /**
   * Until when (epoch ms, the acking process's clock) the acking process tries to hand the request
   * off; past it (see stream.ts, HANDOFF) it tells the person the hand-off failed, so an entry that
   * reaches the stream later than that (a write that timed out and was sent again on a reconnect, or
   * sat in a paused server's socket) is not run. Absent in entries from before it existed.
   */
  handOffBy?: number;
  /** A slash command's text and the channel's name. */
  command?: { text: string; channelName?: string };
  /** The clicked control, as Slack sent it (one element: its id, block, value or selected option). */
  action?: Record<string, unknown>;
  /** The inner event of an Events API request. */
  event?: { type: string } & Record<string, unknown>;
  /** A Workflow Builder step's run. */
  step?: { executionId: string; inputs: Record<string, unknown> };
  /**
   * A person's message (its text cut to what the reader reads). A person's own words, like a
   * submission's fields, leave Redis when the request is done: the stream entry is deleted then.
   */
  message?: MessageSaid;
  /** What a modal's submission filled in, for its work: the inputs' values and the view's metadata. */
  submission?: { values: Record<string, unknown>; privateMetadata?: string };
  /** Log fields of the request (team, user, entry), so the executor's lines carry them too. */
  log: Record<string, string>;
  /** W3C traceparent of the ack's span, when tracing is on: the answer's span joins its trace. An id. */
  tp?: string;
}

/** How a job ended, for the counters of the process that owns the metrics. */
export interface InteractiveOutcome {
  id: string;
  kind: InteractiveRoute["kind"];
  /** The subcommand, the action id, the event type or the step. */
  name: string;
  /** `ok`, an error code, or `duplicate` when another run had answered already. */
  outcome: string;
}

/** A reading of the jobs waiting to start. */
export interface BacklogReading {
  count: number;
  /** How long the oldest of them had waited (0: none waited). */
  waitedMs: number;
  atMs: number;
}

/** Where handed-off jobs go: a Redis stream read by worker processes, or a thread pool. */
export interface InteractiveExecutor {
  /** Accepts the job; resolves once it is stored (stream) or held (pool). */
  submit(job: InteractiveJob): Promise<void>;
  /** Jobs waiting to start (not those being computed), read now: the backlog metric. */
  depth(): Promise<number>;
  /**
   * The backlog as last seen, without waiting on anything: what admission control reads on the
   * acking path. `count` jobs waited, the oldest for `waitedMs`, when it was seen at `atMs` (epoch ms).
   */
  waiting(): BacklogReading;
  /** Stops taking jobs and lets those in flight finish. */
  close(): Promise<void>;
}

/** What the listener frame needs to hand work off. */
export interface Offload {
  executor: InteractiveExecutor;
  /** Jobs allowed to wait; the next request gets a "busy" note at once (its work still runs). */
  backlog: number;
  /**
   * How long the oldest waiting job may have waited before the next request gets the "busy" note:
   * its answer is then expected later than that.
   */
  busyAfterMs: number;
  /** Counts admissions (`queued`, `busy`) for the metrics. */
  admitted?(outcome: "queued" | "busy"): void;
}

/** The job's entry name, for logs and counters. */
export const routeName = (r: InteractiveRoute): string => (r.kind === "command" ? r.name : r.id);
