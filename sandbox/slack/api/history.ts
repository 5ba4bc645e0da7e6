import { wireMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import type { ChannelMessage } from "../types.ts";
import { bool, slackError, str } from "./args.ts";
import { visibleChannel } from "./channels.ts";
import { type ApiContext, type ApiMethod, authed, HttpFault } from "./context.ts";

/**
 * `conversations.history` and `conversations.replies` as Slack serves them to an app, in one of two
 * tiers. Since 2025 Slack gives apps that are not approved for the Marketplace 1 request per minute
 * per workspace and method, with `limit` at most (and by default) 15; Marketplace apps keep Tier 3
 * (about 50 a minute, limit up to 999, default 100). Past the budget: HTTP 429 with Retry-After,
 * `ratelimited`; refused calls do not count. History holds top-level messages only (a thread's
 * parent with `reply_count`, never its replies), newest first inside (`oldest`, `latest`), exclusive
 * unless `inclusive`; replies hold the parent then its replies, oldest first. Both page with
 * `has_more` and a `response_metadata.next_cursor`.
 */
export type HistoryTier = "marketplace" | "non_marketplace";

interface TierRules {
  perMinute: number;
  maxLimit: number;
  defaultLimit: number;
}

const RULES: Record<HistoryTier, TierRules> = {
  non_marketplace: { perMinute: 1, maxLimit: 15, defaultLimit: 15 },
  marketplace: { perMinute: 50, maxLimit: 999, defaultLimit: 100 },
};

interface HistoryState {
  tier: HistoryTier;
  /** Accepted calls per workspace, epoch ms. */
  calls: Map<string, number[]>;
}

const states = new WeakMap<StandInState, HistoryState>();
const of = (state: StandInState): HistoryState => {
  let h = states.get(state);
  if (!h) {
    h = { tier: "non_marketplace", calls: new Map() };
    states.set(state, h);
  }
  return h;
};

/** Switches the tier (and forgets the counts). The stand-in starts as a non-Marketplace app. */
export function setHistoryTier(state: StandInState, tier: HistoryTier): void {
  const h = of(state);
  h.tier = tier;
  h.calls.clear();
}

function spend(state: StandInState, teamId: string, rules: TierRules, method: string): void {
  const h = of(state);
  const now = state.now();
  const key = `${method} ${teamId}`;
  const recent = (h.calls.get(key) ?? []).filter((t) => now - t < 60_000);
  if (recent.length >= rules.perMinute) {
    h.calls.set(key, recent);
    throw new HttpFault(
      429,
      "ratelimited",
      Math.max(1, Math.ceil(((recent[0] ?? now) + 60_000 - now) / 1000)),
    );
  }
  recent.push(now);
  h.calls.set(key, recent);
}

const cursorOf = (ts: string, dir: "before" | "after") => Buffer.from(`${dir}:${ts}`).toString("base64");
const boundOf = (cursor: string | undefined, dir: "before" | "after") => {
  if (!cursor) return undefined;
  const m = /^(before|after):(\d+\.\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (!m || m[1] !== dir) throw slackError("invalid_cursor");
  return Number(m[2]);
};

/** The page of `messages` (already in page order) inside the call's window, with its cursor. */
function page(ctx: ApiContext, method: string, messages: ChannelMessage[], dir: "before" | "after") {
  const { ws } = authed(ctx);
  const rules = RULES[of(ctx.state).tier];
  const bound = boundOf(str(ctx.args, "cursor"), dir);
  const asked = Number(str(ctx.args, "limit") ?? rules.defaultLimit) || rules.defaultLimit;
  const limit = Math.min(Math.max(asked, 1), rules.maxLimit);
  spend(ctx.state, ws.teamId, rules, method);
  const inclusive = bool(ctx.args, "inclusive");
  const oldest = Number(str(ctx.args, "oldest") ?? "0") || 0;
  const latest = Number(str(ctx.args, "latest") ?? "0") || Number.POSITIVE_INFINITY;
  const withMeta = bool(ctx.args, "include_all_metadata");
  const all = ctx.state.messages.get(messages[0]?.channelId ?? "") ?? [];
  const inWindow = messages.filter((m) => {
    const ts = Number(m.ts);
    const lo = inclusive ? ts >= oldest : ts > oldest;
    const hi = inclusive ? ts <= latest : ts < latest;
    const past = bound === undefined || (dir === "before" ? ts < bound : ts > bound);
    return lo && hi && past;
  });
  const shown = inWindow.slice(0, limit);
  const more = inWindow.length > limit;
  const last = shown[shown.length - 1];
  return {
    messages: shown.map((m) => {
      const replies = all.filter((r) => r.threadTs === m.ts);
      return {
        ...wireMessage(m, ctx.appId),
        ...(replies.length > 0
          ? { thread_ts: m.ts, reply_count: replies.length, latest_reply: replies.at(-1)?.ts }
          : {}),
        ...(withMeta && m.metadata ? { metadata: m.metadata } : {}),
      };
    }),
    has_more: more,
    ...(more && last ? { response_metadata: { next_cursor: cursorOf(last.ts, dir) } } : {}),
  };
}

function readable(ctx: ApiContext) {
  const ch = visibleChannel(authed(ctx).ws, str(ctx.args, "channel"), Math.floor(ctx.state.now() / 1000));
  if (!ch.botMember) throw slackError("not_in_channel");
  return ch;
}

export const historyMethod: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const ch = readable(ctx);
    const top = (ctx.state.messages.get(ch.id) ?? []).filter((m) => m.threadTs === undefined).reverse();
    return page(ctx, "conversations.history", top, "before");
  },
};

export const repliesMethod: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const ch = readable(ctx);
    const ts = str(ctx.args, "ts");
    const list = ctx.state.messages.get(ch.id) ?? [];
    const parent = list.find((m) => m.ts === ts);
    if (!ts || !parent) throw slackError("thread_not_found");
    // A reply's ts reads its parent's thread, as in Slack.
    const root = parent.threadTs ?? parent.ts;
    const thread = list.filter((m) => m.ts === root || m.threadTs === root);
    return page(ctx, "conversations.replies", thread, "after");
  },
};
