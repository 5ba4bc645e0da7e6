import { readFileSync } from "node:fs";

/** The app's manifest beside the sandbox: what a workspace grants when it installs the app from it. */
const MANIFEST = new URL("../../manifest.yaml", import.meta.url);

/**
 * The bot scopes `oauth_config.scopes.bot` of manifest.yaml requests. Read from the file, not from
 * the app's code, so the stand-in grants exactly what Slack would grant an app created from it.
 */
export function manifestBotScopes(file: URL = MANIFEST): string[] {
  const text = readFileSync(file, "utf8");
  const block = /\n\s*scopes:\s*\n\s*bot:\s*\n((?:[ \t]+-[^\n]*\n|[ \t]*#[^\n]*\n)+)/.exec(text)?.[1] ?? "";
  const scopes = [...block.matchAll(/^[ \t]+-[ \t]*([a-z.:_-]+)/gm)].map((m) => m[1] as string);
  if (scopes.length === 0) throw new Error(`no oauth_config.scopes.bot list in ${file.pathname}`);
  return scopes;
}
