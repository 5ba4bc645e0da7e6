import type { Command } from "../../commands/grammar.ts";
import { isRangeToken } from "../insights/range-grammar.ts";

/**
 * Shell arguments back into the slash-command text the grammar reads. A shell removes the quotes
 * of `asset:"payments / api"` (and of `"asset:payments / api"` or `asset:'payments / api'`), so
 * one argument arrives as `asset:payments / api`; joined with spaces it would read as three words.
 * An argument that holds a space and no double quote is quoted again around its value; arguments
 * that still carry their quotes (`'asset:"payments / api"'`) pass through unchanged.
 *
 * @example commandText(["last30d", "asset:payments / api"]) // 'last30d asset:"payments / api"'
 */
export function commandText(args: readonly string[]): string {
  return args
    .map((arg) => {
      const word = arg.trim();
      if (!/\s/.test(word) || word.includes('"')) return word;
      const m = /^([A-Za-z]+)([:=])(.*)$/s.exec(word);
      return m ? `${m[1]}${m[2]}"${(m[3] as string).trim()}"` : `"${word}"`;
    })
    .filter((word) => word !== "")
    .join(" ");
}

/**
 * Why the words are not the `kind` a CLI command reads (`preview`: a digest; `export`), in one
 * sentence. Only a range is worth suggesting here: the grammar's other words are Slack commands.
 */
export function notThe(command: Command, kind: string): string {
  if (command.kind !== "invalid")
    return `"${command.kind}" is a Slack command, not ${kind === "export" ? "an export" : "a preview"}.`;
  const guess =
    command.suggestion && isRangeToken(command.suggestion) ? ` Did you mean "${command.suggestion}"?` : "";
  return `${command.message}${guess}`;
}
