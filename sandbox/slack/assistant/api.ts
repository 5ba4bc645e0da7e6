import { isRecord, json, slackError, str } from "../api/args.ts";
import { visibleChannel } from "../api/channels.ts";
import { type ApiContext, type ApiMethod, authed, HttpFault } from "../api/context.ts";
import { findMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import { assistantState, threadKey } from "./state.ts";

/**
 * `assistant.threads.setStatus` and `assistant.threads.setSuggestedPrompts`, written from Slack's
 * method reference and its agent messaging pages, with the stand-in's own tables:
 *
 * | method | needs | refuses |
 * |---|---|---|
 * | setStatus | `channel_id`, `thread_ts` of a message in that conversation, `status` ("" clears); `loading_messages` ≤ 10 | `channel_not_found`, `not_in_channel`, `invalid_thread_ts`, `invalid_arguments` |
 * | setSuggestedPrompts | `channel_id` of the app's DM with someone, `prompts`: 1–4 of `{ title, message }`, optional `title` | `channel_not_found`, `invalid_arguments` |
 *
 * A status shows until the app posts in the thread or two minutes pass. Under the agent messaging
 * experience (`features.agent_view`) prompts belong to the whole DM: a call naming a `thread_ts`
 * is answered ok and does nothing, as Slack documents ("silently fail"); under the legacy
 * assistant experience `thread_ts` is required. Rate limits: setSuggestedPrompts is Tier 4 (100 a
 * minute per workspace); setStatus has "special" limits Slack does not publish, held to the same
 * 100 a minute here. Past them: HTTP 429 `ratelimited` with Retry-After.
 */

const PER_MINUTE: Record<string, number> = {
  "assistant.threads.setStatus": 100,
  "assistant.threads.setSuggestedPrompts": 100,
};
export const MAX_PROMPTS = 4;
export const MAX_LOADING_MESSAGES = 10;

function spend(state: StandInState, method: string, teamId: string): void {
  const a = assistantState(state);
  const now = state.now();
  const key = `${method} ${teamId}`;
  const recent = (a.calls.get(key) ?? []).filter((t) => now - t < 60_000);
  const limit = PER_MINUTE[method] ?? 100;
  if (recent.length >= limit) {
    a.calls.set(key, recent);
    throw new HttpFault(
      429,
      "ratelimited",
      Math.max(1, Math.ceil(((recent[0] ?? now) + 60_000 - now) / 1000)),
    );
  }
  recent.push(now);
  a.calls.set(key, recent);
}

const nowSec = (ctx: ApiContext) => Math.floor(ctx.state.now() / 1000);

function conversation(ctx: ApiContext) {
  const { ws } = authed(ctx);
  const id = str(ctx.args, "channel_id");
  // A conversation id, never a user id or a channel name.
  if (!id || !ws.channels.has(id)) throw slackError("channel_not_found");
  const ch = visibleChannel(ws, id, nowSec(ctx));
  if (!ch.botMember) throw slackError("not_in_channel");
  return { ws, ch };
}

const setStatus: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws, ch } = conversation(ctx);
    const threadTs = str(ctx.args, "thread_ts");
    const parent = threadTs ? findMessage(ctx.state, ch.id, threadTs) : undefined;
    if (!threadTs || !parent || parent.threadTs !== undefined) throw slackError("invalid_thread_ts");
    const status = ctx.args.status;
    if (typeof status !== "string") throw slackError("invalid_arguments");
    const loading = json(ctx.args, "loading_messages", "invalid_arguments");
    if (loading !== undefined && (!Array.isArray(loading) || loading.length > MAX_LOADING_MESSAGES))
      throw slackError("invalid_arguments");
    spend(ctx.state, "assistant.threads.setStatus", ws.teamId);
    const record = { channelId: ch.id, threadTs, status, at: ctx.state.now() };
    const a = assistantState(ctx.state);
    a.statuses.push(record);
    a.current.set(threadKey(ch.id, threadTs), record);
    return {};
  },
};

const setSuggestedPrompts: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws, ch } = conversation(ctx);
    // Suggested prompts live in the app's DM with a person.
    if (!ch.isIm) throw slackError("channel_not_found");
    const prompts = json(ctx.args, "prompts", "invalid_arguments");
    const valid =
      Array.isArray(prompts) &&
      prompts.length >= 1 &&
      prompts.length <= MAX_PROMPTS &&
      prompts.every(
        (p) =>
          isRecord(p) &&
          typeof p.title === "string" &&
          p.title !== "" &&
          typeof p.message === "string" &&
          p.message !== "",
      );
    if (!valid) throw slackError("invalid_arguments");
    const title = ctx.args.title;
    if (title !== undefined && typeof title !== "string") throw slackError("invalid_arguments");
    spend(ctx.state, "assistant.threads.setSuggestedPrompts", ws.teamId);
    const a = assistantState(ctx.state);
    const threadTs = str(ctx.args, "thread_ts");
    const experience = ctx.state.manifest.agentExperience;
    if (experience === "agent_view" && threadTs !== undefined) {
      a.ignored.push({
        method: "assistant.threads.setSuggestedPrompts",
        reason: "thread_ts under agent_view",
        at: ctx.state.now(),
      });
      return {};
    }
    if (experience === "assistant_view" && threadTs === undefined) throw slackError("invalid_arguments");
    a.prompts.set(ch.id, {
      channelId: ch.id,
      title: title as string | undefined,
      prompts: (prompts as { title: string; message: string }[]).map((p) => ({
        title: p.title,
        message: p.message,
      })),
      at: ctx.state.now(),
    });
    return {};
  },
};

export const assistantMethods: Record<string, ApiMethod> = {
  "assistant.threads.setStatus": setStatus,
  "assistant.threads.setSuggestedPrompts": setSuggestedPrompts,
};
