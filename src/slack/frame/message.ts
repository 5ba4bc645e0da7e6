import { createHash } from "node:crypto";
import type { Context } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { codeOf } from "../../metrics.ts";
import type { AppServices } from "../services.ts";
import { checkAccess } from "./access.ts";
import { bareReply, type RequestFacts, requestContext } from "./context.ts";
import { type Args, obj, str, teamOfContext } from "./facts.ts";
import { handOffAcked } from "./fast-path.ts";
import { handsOff, type MessageEntry, type SaidMessage } from "./types.ts";

type Body = Record<string, unknown>;

/**
 * A person's message to the app, or null for anything that is not one: an edit, a deletion, a join
 * or any other subtype, a bot's post, the app's own, an empty message, a channel message that is
 * not a DM. Dropping these first is what keeps an answer from ever being answered (no loops).
 */
export function saidMessage(body: Body, entryId: string, botUserId?: string): SaidMessage | null {
  const event = obj(body.event);
  if (str(event.type) !== entryId) return null;
  if (event.subtype !== undefined || event.hidden === true) return null;
  if (event.bot_id !== undefined || event.bot_profile !== undefined) return null;
  const userId = str(event.user);
  const channelId = str(event.channel);
  const ts = str(event.ts);
  if (!userId || !channelId || !ts) return null;
  const authorizations = Array.isArray(body.authorizations) ? body.authorizations : [];
  const bot = botUserId ?? str(obj(authorizations[0]).user_id);
  if (bot && userId === bot) return null;
  const dm = event.channel_type === "im" || (event.channel_type === undefined && channelId.startsWith("D"));
  // Only direct messages are questions; in channels the app answers where it is mentioned.
  if (entryId === "message" && event.channel_type !== "im") return null;
  if (entryId === "app_mention" && dm) return null;
  const text = typeof event.text === "string" ? event.text : "";
  if (text.trim() === "") return null;
  return { userId, channelId, ts, threadTs: str(event.thread_ts) ?? ts, text, botUserId: bot, dm };
}

/** The request facts of a person's message: answers go to its thread. */
export function messageFacts(
  args: { context: Context; client: WebClient },
  said: SaidMessage,
  id: string,
): RequestFacts {
  return {
    context: args.context,
    client: args.client,
    userId: said.userId,
    channelId: said.channelId,
    threadTs: said.threadTs,
    logFields: { teamId: args.context.teamId, userId: said.userId, message: id, channel: said.channelId },
  };
}

/**
 * One id per message, whoever receives it: Slack delivers an event again when it saw no ack in
 * time, and the second delivery must find the first one's claim, not answer twice.
 */
export function messageRequestId(teamId: string | undefined, said: SaidMessage): string {
  const hash = createHash("sha256").update(`${teamId ?? ""}\u0000${said.channelId}\u0000${said.ts}`);
  return `m${hash.digest("hex").slice(0, 24)}`;
}

/**
 * A person's message through the frame: dropped unless it is a person's (see saidMessage), then
 * handed to the digest executor, which applies the entry's access level and runs it (the default),
 * or run here under its access level when the entry says why (`inline`). Bolt has acknowledged the
 * event already.
 */
export async function dispatchMessage(
  deps: AppServices,
  args: Args,
  entry: MessageEntry,
  id: string,
  count: (kind: string, outcome: string) => void,
): Promise<void> {
  const said = saidMessage(args.body as unknown as Body, id, args.context.botUserId);
  if (!said) {
    count("message", "ignored");
    return;
  }
  const facts = messageFacts(args, said, id);
  const log = deps.logger.child(facts.logFields);
  if (handsOff(entry) && deps.offload) {
    const team = teamOfContext(args);
    // No user lookup or access check here: the executor does both where the answer is computed.
    const reply = () => bareReply(deps, facts, log);
    await handOffAcked(
      { ...deps, offload: deps.offload },
      args.body as unknown as Body,
      { kind: "message", id },
      async () => {},
      team,
      {
        read: { id: messageRequestId(team.teamId ?? team.enterpriseId, said), message: said },
        busyNote: (text) => reply().notice(text),
        failed: (err) => reply().error(err),
      },
    );
    return;
  }
  let reply = bareReply(deps, facts, log);
  try {
    const ctx = requestContext(deps, facts);
    reply = ctx.reply;
    await checkAccess(entry.access, ctx);
    await entry.run({ ...ctx, message: said });
    count("message", "ok");
  } catch (err) {
    count("message", codeOf(err));
    await reply.error(err);
  }
}
