import { AppError } from "../src/errors.ts";
import { COMMAND } from "../src/ids.ts";
import { type CommandEntry, OPENS_MODAL, onCommand } from "../src/slack/frame/index.ts";
import { connectCommand } from "./connect.ts";
import type { CommandHandler } from "./context.ts";
import { digestCommand } from "./digest.ts";
import { disconnectCommand } from "./disconnect.ts";
import { exportCommand } from "./export.ts";
import { type Command, parseCommand } from "./grammar.ts";
import { helpCommand } from "./help.ts";
import { pauseCommand, resumeCommand, sendCommand, unsubscribeCommand } from "./manage.ts";
import { settingsCommand } from "./settings.ts";
import { statusCommand } from "./status.ts";
import { subscribeCommand, subscribeMeCommand } from "./subscribe.ts";
import { subscriptionsCommand } from "./subscriptions.ts";

type Kind = Exclude<Command["kind"], "invalid">;

const entry = <K extends Kind>(
  name: K,
  access: CommandEntry["access"],
  run: CommandHandler<K>,
  opts: { inline?: string } = {},
) => onCommand({ name, access, run: run as CommandEntry["run"], ...opts });

/**
 * The registration table: one handler per subcommand, each with who may use it. The listener
 * frame applies the access level before the handler runs; pause/resume/send/unsubscribe also
 * check that the person owns (or may manage) that subscription. Every subcommand's work is handed
 * off the event loop that acks Slack's requests unless its entry says why it runs there (`inline`).
 */
export const COMMAND_ENTRIES: CommandEntry[] = [
  entry("digest", "reader", digestCommand),
  entry("help", "anyone", helpCommand, { inline: "a fixed text from a template" }),
  entry("connect", "manager", connectCommand, { inline: OPENS_MODAL }),
  entry("disconnect", "manager", disconnectCommand),
  entry("status", "reader", statusCommand),
  entry("subscribe", "manager", subscribeCommand, { inline: OPENS_MODAL }),
  // A personal digest goes to whoever asks: the same people who may read digests (DIGEST_ACCESS).
  entry("subscribeMe", "reader", subscribeMeCommand, { inline: OPENS_MODAL }),
  entry("export", "reader", exportCommand),
  entry("subscriptions", "reader", subscriptionsCommand),
  entry("unsubscribe", "reader", unsubscribeCommand),
  entry("pause", "reader", pauseCommand),
  entry("resume", "reader", resumeCommand),
  entry("send", "reader", sendCommand),
  // The workspace's settings shape every digest: admins read and change them.
  entry("settings", "manager", settingsCommand),
];

/** The slash command's text as a subcommand, or an AppError that says what was wrong and what to try. */
export function parseSlashText(text: string): Command {
  const command = parseCommand(text);
  if (command.kind === "invalid") {
    const suggestion = command.suggestion ? `${COMMAND} ${command.suggestion}` : undefined;
    throw new AppError(command.code, command.message, { details: { suggestion } });
  }
  return command;
}

/** What the frame routes for the slash command. */
export const SLASH_COMMAND = { name: COMMAND, parse: parseSlashText, entries: COMMAND_ENTRIES };
