import { wireMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import { bool, slackError, str } from "./args.ts";
import { visibleChannel } from "./channels.ts";
import { type ApiMethod, authed, HttpFault } from "./context.ts";

/**
 * `conversations.history` as Slack serves it to an app, in one of two tiers. Since 2025 Slack gives
 * apps that are not approved for the Marketplace 1 request per minute per workspace, with `limit`
 * at most (and by default) 15; Marketplace apps keep Tier 3 (about 50 a minute, limit up to 999,
 * default 100). Past the budget: HTTP 429 with Retry-After, `ratelimited`; refused calls do not count.
 * Pages go newest first inside (`oldest`, `latest`), exclusive unless `inclusive`, with
 * `has_more` and a `response_metadata.next_cursor` to go on from.
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

function spend(state: StandInState, teamId: string, rules: TierRules): void {
  const h = of(state);
  const now = state.now();
  const recent = (h.calls.get(teamId) ?? []).filter((t) => now - t < 60_000);
  if (recent.length >= rules.perMinute) {
    h.calls.set(teamId, recent);
    throw new HttpFault(
      429,
      "ratelimited",
      Math.max(1, Math.ceil(((recent[0] ?? now) + 60_000 - now) / 1000)),
    );
  }
  recent.push(now);
  h.calls.set(teamId, recent);
}

const cursorOf = (ts: string) => Buffer.from(`before:${ts}`).toString("base64");
const beforeOf = (cursor: string | undefined) => {
  if (!cursor) return undefined;
  const m = /^before:(\d+\.\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (!m) throw slackError("invalid_cursor");
  return Number(m[1]);
};

export const historyMethod: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const ch = visibleChannel(ws, str(ctx.args, "channel"), Math.floor(ctx.state.now() / 1000));
    if (!ch.botMember) throw slackError("not_in_channel");
    const rules = RULES[of(ctx.state).tier];
    const before = beforeOf(str(ctx.args, "cursor"));
    const asked = Number(str(ctx.args, "limit") ?? rules.defaultLimit) || rules.defaultLimit;
    const limit = Math.min(Math.max(asked, 1), rules.maxLimit);
    spend(ctx.state, ws.teamId, rules);
    const inclusive = bool(ctx.args, "inclusive");
    const oldest = Number(str(ctx.args, "oldest") ?? "0") || 0;
    const latest = Number(str(ctx.args, "latest") ?? "0") || Number.POSITIVE_INFINITY;
    const withMeta = bool(ctx.args, "include_all_metadata");
    const inWindow = (ctx.state.messages.get(ch.id) ?? [])
      .filter((m) => {
        const ts = Number(m.ts);
        const lo = inclusive ? ts >= oldest : ts > oldest;
        const hi = inclusive ? ts <= latest : ts < latest;
        return lo && hi && (before === undefined || ts < before);
      })
      .reverse();
    const page = inWindow.slice(0, limit);
    const more = inWindow.length > limit;
    const last = page[page.length - 1];
    return {
      messages: page.map((m) => ({
        ...wireMessage(m, ctx.appId),
        ...(withMeta && m.metadata ? { metadata: m.metadata } : {}),
      })),
      has_more: more,
      ...(more && last ? { response_metadata: { next_cursor: cursorOf(last.ts) } } : {}),
    };
  },
};
