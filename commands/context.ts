import type { RespondFn, SlashCommand } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { AppServices } from "../src/slack/services.ts";
import type { SlackUser } from "../src/slack/users.ts";
import type { WorkspaceRef } from "../src/store/keys.ts";
import type { Command } from "./grammar.ts";

/** What every `/insights` subcommand handler receives, already acknowledged and parsed. */
export interface CommandContext<K extends Command["kind"] = Command["kind"]> {
  command: Extract<Command, { kind: K }>;
  body: SlashCommand;
  respond: RespondFn;
  client: WebClient;
  ref: WorkspaceRef;
  deps: AppServices;
  /** The caller, from users.info (cached): timezone and role. */
  user(): Promise<SlackUser>;
}

export type CommandHandler<K extends Command["kind"] = Command["kind"]> = (
  ctx: CommandContext<K>,
) => Promise<void>;
