import type {
  AllMiddlewareArgs,
  BlockAction,
  BlockElementAction,
  BlockSuggestion,
  RespondFn,
  SlashCommand,
  ViewOutput,
  ViewResponseAction,
  ViewSubmitAction,
} from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Message } from "../../blockkit/types.ts";
import type { MessageSaid } from "../../interactive/types.ts";
import type { Logger } from "../../log.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { AppServices } from "../services.ts";
import type { SlackUser } from "../users.ts";

/**
 * Who may use an entry. `anyone`: every member (help, links). `reader`: whoever may run digests
 * (DIGEST_ACCESS). `manager`: admins, owners, the installer and ADMIN_USER_IDS.
 */
export type Access = "anyone" | "reader" | "manager";

/** Answers to the person, on whichever surface the request came from (see reply.ts). */
export interface Reply {
  /** A short private text (our mrkdwn). */
  notice(text: string): Promise<void>;
  /**
   * A private message. With `replace`, the ephemeral message the click came from is redrawn in
   * place; a message everyone sees is never rewritten for one person.
   */
  message(message: Message, opts?: { replace?: boolean }): Promise<void>;
  /** An error in the one reply shape every entry uses. */
  error(err: unknown): Promise<void>;
}

/** What every handler receives: already acknowledged, workspace loaded, access checked. */
export interface RequestContext {
  deps: AppServices;
  ref: WorkspaceRef;
  client: WebClient;
  log: Logger;
  userId: string;
  /** The caller from users.info (cached in Redis): timezone and role. */
  user(): Promise<SlackUser>;
  /** Whether the caller may manage (connect the key, subscribe channels). */
  isManager(): Promise<boolean>;
  reply: Reply;
}

export interface CommandContext<C> extends RequestContext {
  command: C;
  body: SlashCommand;
  respond: RespondFn;
}

export interface ActionContext extends RequestContext {
  body: BlockAction;
  action: BlockElementAction;
}

export interface ViewContext extends RequestContext {
  body: ViewSubmitAction;
  view: ViewOutput;
}

export interface OptionsContext extends RequestContext {
  body: BlockSuggestion;
}

export interface EventContext {
  deps: AppServices;
  ref: WorkspaceRef;
  client: WebClient;
  log: Logger;
  event: { type: string } & Record<string, unknown>;
  context: AllMiddlewareArgs["context"];
}

/**
 * How a modal submission is answered within Slack's 3 s, and what runs after the answer. Field
 * errors are a result like any other: the frame shows them beside the inputs (see view-answer.ts).
 */
export interface ViewResult {
  /** Messages by input block id; the modal stays open and nothing after runs. */
  errors?: Record<string, string>;
  /** Any other answer: redraw the view, push one, clear them all; none closes the modal. */
  answer?: Exclude<ViewResponseAction, { response_action: "errors" }>;
  after?: () => Promise<void>;
}

export interface OptionsResult {
  options?: { text: { type: "plain_text"; text: string }; value: string }[];
  option_groups?: {
    label: { type: "plain_text"; text: string };
    options: { text: { type: "plain_text"; text: string }; value: string }[];
  }[];
}

/** One subcommand of the slash command; `C` is the parsed command it handles. */
export interface CommandEntry<C = unknown> {
  kind: "command";
  /** The subcommand's name as the parser returns it (`digest`, `help`, …). */
  name: string;
  access: Access;
  /**
   * Why this entry runs on the event loop that acks Slack's requests. Without it (the default) its work
   * is handed off to the digest executor (worker processes or threads): an entry that builds a digest,
   * drivers, a chart, an unfurl or a step's output must never set it.
   */
  inline?: string;
  run(ctx: CommandContext<C>): Promise<void>;
}

export interface ActionEntry {
  kind: "action";
  /** The `action_id`, or a pattern for a family of ids (range buttons). */
  id: string | RegExp;
  access: Access;
  /**
   * Why this entry runs on the event loop that acks Slack's requests. Without it (the default) its work
   * is handed off to the digest executor (worker processes or threads): an entry that builds a digest,
   * drivers, a chart, an unfurl or a step's output must never set it.
   */
  inline?: string;
  run(ctx: ActionContext): Promise<void>;
}

export interface ViewEntry {
  kind: "view";
  /** The modal's `callback_id`. */
  id: string;
  access: Access;
  /** The input block a refusal is shown on (Slack shows view errors next to an input). */
  errorBlock: string;
  run(ctx: ViewContext): Promise<ViewResult>;
  /**
   * Work a submission asks for after `run` answered (and the modal closed): it is always handed off
   * to the digest executor, never run on the acking event loop, and not at all when `run` kept the
   * modal open with errors. It reads the submitted values and the view's metadata, nothing else of it.
   */
  work?(ctx: ViewContext): Promise<void>;
}

export interface OptionsEntry {
  kind: "options";
  /** The external select's `action_id`. */
  id: string;
  access: Access;
  run(ctx: OptionsContext): Promise<OptionsResult>;
}

export interface EventEntry {
  kind: "event";
  /** The inner event's `type`. */
  id: string;
  /** Skipped while Slack says the workspace sends us more events than it allows (app_rate_limited). */
  optional?: boolean;
  /**
   * Why this entry runs on the event loop that acks Slack's requests. Without it (the default) its work
   * is handed off to the digest executor (worker processes or threads): an entry that builds a digest,
   * drivers, a chart, an unfurl or a step's output must never set it.
   */
  inline?: string;
  run(ctx: EventContext): Promise<void>;
}

/**
 * A message a person sent the app, as the frame hands it over: never a bot's, never the app's own,
 * never an edit or a join (the frame drops those before anything else, so no answer can loop).
 */
export interface SaidMessage extends MessageSaid {
  userId: string;
}

export interface MessageContext extends RequestContext {
  message: SaidMessage;
}

/**
 * Messages people send the app: DMs (`message` with `channel_type: im`, Slack's `message.im`) and
 * mentions (`app_mention`). Answered in the message's thread, under an access level like any
 * command's; handed off to the digest executor like every entry that does not say otherwise.
 */
export interface MessageEntry {
  kind: "message";
  /** The inner event's type: `message` (direct messages only) or `app_mention`. */
  id: string;
  access: Access;
  /**
   * Why this entry runs on the event loop that acks Slack's requests. Without it (the default) its work
   * is handed off to the digest executor (worker processes or threads): an entry that builds a digest,
   * drivers, a chart, an unfurl or a step's output must never set it.
   */
  inline?: string;
  run(ctx: MessageContext): Promise<void>;
}

/** What a custom step's handler receives: already acknowledged, workspace loaded. */
export interface FunctionContext {
  deps: AppServices;
  ref: WorkspaceRef;
  /**
   * A Web API client with the bot's token where the run is handed off (the default), or with the
   * run's own token (`xwfp-`, revoked when the step completes) where it runs as it arrives.
   */
  client: WebClient;
  log: Logger;
  /** The step's inputs as Workflow Builder filled them in; unchecked (treat as untrusted). */
  inputs: Record<string, unknown>;
  executionId: string;
}

/**
 * A Workflow Builder custom step (`functions` in manifest.yaml). The frame acks the
 * `function_executed` event, completes the step with the outputs `run` returns, and fails it with
 * the message of anything `run` throws (an AppError's words reach the workflow's owner as they are).
 */
export interface FunctionEntry {
  kind: "function";
  /** The step's `callback_id`. */
  id: string;
  /**
   * Why this entry runs on the event loop that acks Slack's requests. Without it (the default) its work
   * is handed off to the digest executor (worker processes or threads): an entry that builds a digest,
   * drivers, a chart, an unfurl or a step's output must never set it.
   */
  inline?: string;
  run(ctx: FunctionContext): Promise<Record<string, unknown>>;
}

export type ListenerEntry =
  | ActionEntry
  | ViewEntry
  | OptionsEntry
  | EventEntry
  | FunctionEntry
  | MessageEntry;

/**
 * Turns the slash command's text into a named subcommand, or throws an AppError whose message
 * says what was wrong (it reaches the person as is).
 */
export type CommandParser<C> = (text: string) => C & { kind: string };

/** Whether an entry's work is handed off (the default) rather than run where the request is acked. */
export const handsOff = (e: { inline?: string }): boolean => e.inline === undefined;
