import type { CommandContext as FrameCommandContext } from "../src/slack/frame/index.ts";
import type { Command } from "./grammar.ts";

/** What every `/insights` subcommand handler receives: acknowledged, parsed, access already checked. */
export type CommandContext<K extends Command["kind"] = Command["kind"]> = FrameCommandContext<
  Extract<Command, { kind: K }>
>;

export type CommandHandler<K extends Command["kind"] = Command["kind"]> = (
  ctx: CommandContext<K>,
) => Promise<void>;
