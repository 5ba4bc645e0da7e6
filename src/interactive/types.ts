/**
 * Digest work handed off the request path. The process that receives a Slack request verifies it,
 * acknowledges it, applies the access policy and hands the rest over as an {@link InteractiveJob}:
 * to worker processes through a queue, or to a pool of threads in a single-process install.
 */

/** Which entry of the route table runs the job. */
export type InteractiveRoute =
  | { kind: "command"; name: string }
  | { kind: "action"; id: string }
  /** A modal's submission whose work follows the answer (the modal has closed). */
  | { kind: "view"; id: string }
  /** A message a person sent the app (a DM, a mention); `id` is the inner event's type. */
  | { kind: "message"; id: string };

/** One handed-off request: ids, the request's own payload and its response_url; never a token or key. */
export interface InteractiveJob {
  /** Unique per Slack request: the queue's job id and the key of the request's claim. */
  id: string;
  route: InteractiveRoute;
  /** The Slack payload without its verification token or the clicked message's content. */
  body: Record<string, unknown>;
  /** The workspace, as Bolt's context named it. */
  team: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean };
  userId: string;
  /** When the receiving process got the request (epoch ms): the digest's "now" and the response_url's age. */
  receivedAt: number;
  /** A "busy" note already went out on the response_url (one of its five uses, and a message to replace). */
  busy: boolean;
  /** Log fields of the request (its id, team, user), so the executor's lines carry them too. */
  log: Record<string, string>;
}

/** How a job ended, for the counters of the process that owns the metrics. */
export interface InteractiveOutcome {
  id: string;
  kind: InteractiveRoute["kind"];
  /** The subcommand or the action id. */
  name: string;
  /** `ok`, an error code, or `duplicate` when another run had answered already. */
  outcome: string;
}

/** Where handed-off jobs go: a queue read by worker processes, or a thread pool. */
export interface InteractiveExecutor {
  /** Accepts the job; resolves once it is stored (queue) or held (pool). */
  submit(job: InteractiveJob): Promise<void>;
  /** Jobs waiting to start (not those being computed): the backlog admission control looks at. */
  depth(): Promise<number>;
  /** Stops taking jobs and lets those in flight finish. */
  close(): Promise<void>;
}

/** What the listener frame needs to hand work off. */
export interface Offload {
  executor: InteractiveExecutor;
  /** Jobs allowed to wait; the next request gets a "busy" reply at once (its work still runs). */
  backlog: number;
  /** Counts admissions (`queued`, `busy`) for the metrics. */
  admitted?(outcome: "queued" | "busy"): void;
}
