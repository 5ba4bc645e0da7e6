import type { Workspace } from "../types.ts";
import { str } from "./args.ts";
import type { ApiContext } from "./context.ts";

/**
 * The bot scopes each Web API method needs, written from Slack's method reference and kept apart
 * from the app: a scope missing from manifest.yaml makes the call fail here as it would in Slack.
 * Methods that act on a conversation need the scope of its kind (public, private, DM, group DM).
 */

type Kind = "public" | "private" | "im" | "mpim";
type Need = readonly string[] | ((ctx: ApiContext, ws: Workspace) => readonly string[]);

/** The kind of conversation `channel` names; undefined when unknown (the method then says so itself). */
function kindOf(ws: Workspace, ref: string | undefined): Kind | "user" | undefined {
  if (!ref) return undefined;
  if (/^[UW][A-Z0-9]+$/.test(ref) && ws.users.has(ref)) return "user";
  const ch = ws.channels.get(ref) ?? [...ws.channels.values()].find((c) => c.name === ref.replace(/^#/, ""));
  if (!ch) return undefined;
  return ch.isIm ? "im" : ch.isPrivate ? "private" : "public";
}

const byKind =
  (scopes: Record<Kind, string>): Need =>
  (ctx, ws) => {
    const kind = kindOf(ws, str(ctx.args, "channel"));
    return kind && kind !== "user" ? [scopes[kind]] : [];
  };

/**
 * Posting to a user id opens the app's DM with them first. Slack's reference asks only chat:write
 * for the post; the stand-in also asks im:write, the scope of opening a DM, to stay on the strict
 * side: an app that relies on the looser reading would lose every owner notice if Slack enforced it.
 */
const postMessage: Need = (ctx, ws) =>
  kindOf(ws, str(ctx.args, "channel")) === "user" ? ["chat:write", "im:write"] : ["chat:write"];

export const METHOD_SCOPES: Readonly<Record<string, Need>> = {
  "auth.test": [],
  "chat.postMessage": postMessage,
  "chat.postEphemeral": ["chat:write"],
  "chat.update": ["chat:write"],
  "chat.delete": ["chat:write"],
  "views.open": [],
  "views.push": [],
  "views.update": [],
  "views.publish": [],
  "users.info": ["users:read"],
  "conversations.info": byKind({
    public: "channels:read",
    private: "groups:read",
    im: "im:read",
    mpim: "mpim:read",
  }),
  "conversations.history": byKind({
    public: "channels:history",
    private: "groups:history",
    im: "im:history",
    mpim: "mpim:history",
  }),
  "conversations.replies": byKind({
    public: "channels:history",
    private: "groups:history",
    im: "im:history",
    mpim: "mpim:history",
  }),
  "conversations.open": ["im:write"],
  "files.getUploadURLExternal": ["files:write"],
  "files.completeUploadExternal": ["files:write"],
  "files.info": ["files:read"],
  "chat.unfurl": ["links:write"],
  // Slack's reference (and its change of March 2026): either scope, chat:write to become the only one.
  "assistant.threads.setStatus": (_ctx, ws) => (ws.scopes.includes("assistant:write") ? [] : ["chat:write"]),
  "assistant.threads.setSuggestedPrompts": ["assistant:write"],
  "chat.getPermalink": [],
  // Called with other tokens than the bot's, checked by those methods themselves: the app-level token
  // (connections:write) and a custom step run's own workflow token.
  "apps.connections.open": [],
  "functions.completeSuccess": [],
  "functions.completeError": [],
  "oauth.v2.access": [],
  "apps.uninstall": [],
};

/** Scopes the call needs that the token's workspace was not granted (empty when it may go ahead). */
export function lackingScopes(method: string, ctx: ApiContext, ws: Workspace): string[] {
  const need = METHOD_SCOPES[method] ?? [];
  const needed = typeof need === "function" ? need(ctx, ws) : need;
  return needed.filter((s) => !ws.scopes.includes(s));
}
