import { randomUUID } from "node:crypto";
import { type WriteConfirmer, WriteUnconfirmed } from "../store/confirm-writes.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { runScript, script } from "../store/scripts.ts";

/**
 * The idempotency claim of one delivery, (subscription, period), as one field of a hash per
 * (workspace, period) that expires as a whole, so a fire of thousands of subscriptions leaves a few
 * compact hashes rather than a key each:
 *   `p|<token>|<lease until ms>|<posting since ms>` a worker is delivering; if it dies the lease runs
 *       out and the next attempt takes over. `posting since` is set right before chat.postMessage and
 *       survives a release: a post may be in the channel, so whoever goes on looks before posting.
 *   `d|<ts>`   delivered (the message ts); retried or duplicated jobs skip it.
 *   `f|<code>` failed for good and already reported (one failure notice per period).
 *   `s|<why>`  ran and had nothing to post (the condition was not met; an alert check without news).
 * Time is Redis' own (TIME), so workers with skewed clocks agree on leases.
 */

export type ClaimState =
  | { state: "acquired"; token: string; postingSince: number | null }
  | { state: "done"; outcome: "delivered" | "failed" | "skipped"; detail: string }
  | { state: "busy"; retryInMs: number };

/** Options of createDeliveryClaims. Defaults in brackets. */
export interface ClaimOptions {
  redis: RedisClient;
  keys: KeyScheme;
  /** How long a delivering worker holds the claim [120 s]; longer than one delivery takes. */
  leaseMs?: number;
  /** How long a period's claims are remembered [36 h]; longer than a job's retries last. */
  doneTtlMs?: number;
  /**
   * Waits for a replica to hold the claim written right before a post (`confirm`); without it [none],
   * a claim acknowledged by a primary that then fails over may vanish, and the post with it.
   */
  confirmer?: WriteConfirmer;
}

/** The claim operations of one delivery, keyed by (workspace, subscription, period). */
export interface DeliveryClaims {
  claim(ref: WorkspaceRef, subId: string, period: string): Promise<ClaimState>;
  /**
   * Right before posting: re-checks the lease (extends it if ours, retakes it if it ran out unclaimed)
   * and notes that a post is going out. False if another worker took over or the period is done.
   * Throws WriteUnconfirmed (`redis_unconfirmed`) when no replica acknowledged the note in time: a
   * failover could lose it, and a post that went out anyway could go out again.
   */
  confirm(ref: WorkspaceRef, subId: string, period: string, token: string): Promise<boolean>;
  /**
   * Whether the claims written so far on this connection (begin's too, which shares it) are held by a
   * replica; true at once where nothing needs confirming.
   */
  durable(): Promise<boolean>;
  /** Records the verdict. Overwrites whoever holds it: once a post went out, nobody may post again. */
  finish(
    ref: WorkspaceRef,
    subId: string,
    period: string,
    outcome: "delivered" | "failed" | "skipped",
    detail: string,
  ): Promise<void>;
  /**
   * Gives the claim up, so a retry can take it at once. `posted: true` (the default) keeps a noted
   * post noted (it may be in the channel); `false` when Slack certainly refused it.
   */
  release(
    ref: WorkspaceRef,
    subId: string,
    period: string,
    token: string,
    o?: { posted?: boolean },
  ): Promise<void>;
  /** What the claim of a period says now, without taking it (an alert check asks about an earlier one). */
  peek(ref: WorkspaceRef, subId: string, period: string): Promise<ClaimPeek>;
  readonly leaseMs: number;
  readonly doneTtlMs: number;
}

/**
 * A claim seen from outside: nobody holds it (`none`: never taken, released before posting, or
 * forgotten), a run holds it or may have posted (`pending`, with how long until its lease runs out),
 * or it is `done`.
 */
export type ClaimPeek =
  | { kind: "none" }
  | { kind: "pending"; retryInMs: number; posting: boolean }
  | { kind: "done"; outcome: "delivered" | "failed" | "skipped" };

/** Lua shared by the claim scripts: Redis time in ms, and the parts of a pending value. */
export const CLAIM_LUA_HEAD = `
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function pending(v)
  local token, untilMs, since = string.match(v, '^p|([^|]*)|(%d+)|(%d*)$')
  return token, tonumber(untilMs), since
end`;

/**
 * KEYS: claims hash. ARGV: sub id, token, lease ms, ttl ms. Returns {1, posting since} when acquired,
 * {0, value, ms to wait} otherwise.
 */
export const CLAIM_LUA = `
local v = redis.call('hget', KEYS[1], ARGV[1])
local since = ''
if v then
  local token, untilMs, s = pending(v)
  if not token then return {0, v, 0} end
  if untilMs > now then return {0, v, untilMs - now} end
  since = s
end
redis.call('hset', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. (now + tonumber(ARGV[3])) .. '|' .. since)
if redis.call('pttl', KEYS[1]) < tonumber(ARGV[4]) then redis.call('pexpire', KEYS[1], ARGV[4]) end
return {1, since, 0}`;

const CONFIRM = script(`${CLAIM_LUA_HEAD}
local v = redis.call('hget', KEYS[1], ARGV[1])
local since = ''
if v then
  local token, untilMs, s = pending(v)
  if not token or (token ~= ARGV[2] and untilMs > now) then return 0 end
  since = s
end
if since == '' then since = tostring(now) end
redis.call('hset', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. (now + tonumber(ARGV[3])) .. '|' .. since)
if redis.call('pttl', KEYS[1]) < tonumber(ARGV[4]) then redis.call('pexpire', KEYS[1], ARGV[4]) end
return 1`);

const RELEASE = script(`${CLAIM_LUA_HEAD}
local v = redis.call('hget', KEYS[1], ARGV[1])
if not v then return 0 end
local token, untilMs, since = pending(v)
if token ~= ARGV[2] then return 0 end
if since == '' or ARGV[3] == '0' then return redis.call('hdel', KEYS[1], ARGV[1]) end
redis.call('hset', KEYS[1], ARGV[1], 'p||0|' .. since)
return 1`);

const CLAIM = script(`${CLAIM_LUA_HEAD}${CLAIM_LUA}`);

/** Reads a claim script's reply. */
export function claimState(reply: [number, string, number], token: string): ClaimState {
  const [ok, value, wait] = reply;
  if (ok === 1) return { state: "acquired", token, postingSince: value ? Number(value) : null };
  if (value.startsWith("d|")) return { state: "done", outcome: "delivered", detail: value.slice(2) };
  if (value.startsWith("f|")) return { state: "done", outcome: "failed", detail: value.slice(2) };
  if (value.startsWith("s|")) return { state: "done", outcome: "skipped", detail: value.slice(2) };
  return { state: "busy", retryInMs: Math.max(wait, 1) };
}

/**
 * @example
 * const claims = createDeliveryClaims({ redis, keys });
 * const c = await claims.claim(ref, subId, "20261102T080000Z"); // { state: "acquired", token, postingSince: null }
 */
export function createDeliveryClaims(options: ClaimOptions): DeliveryClaims {
  const { redis, keys } = options;
  const leaseMs = options.leaseMs ?? 120_000;
  const doneTtlMs = options.doneTtlMs ?? 36 * 3_600_000;
  const key = keys.deliveryClaims;

  return {
    leaseMs,
    doneTtlMs,
    async claim(ref, subId, period) {
      const token = randomUUID();
      const reply = await runScript(redis, CLAIM, [key(ref, period)], [subId, token, leaseMs, doneTtlMs]);
      return claimState(reply as [number, string, number], token);
    },
    async confirm(ref, subId, period, token) {
      const ok =
        (await runScript(redis, CONFIRM, [key(ref, period)], [subId, token, leaseMs, doneTtlMs])) === 1;
      if (ok && options.confirmer && !(await options.confirmer.confirm()))
        throw new WriteUnconfirmed(options.confirmer.timeoutMs);
      return ok;
    },
    durable: () => options.confirmer?.confirm() ?? Promise.resolve(true),
    async finish(ref, subId, period, outcome, detail) {
      await redis
        .multi()
        .hset(key(ref, period), subId, `${outcome[0]}|${detail}`)
        .pexpire(key(ref, period), doneTtlMs)
        .exec();
    },
    async release(ref, subId, period, token, o = {}) {
      await runScript(redis, RELEASE, [key(ref, period)], [subId, token, o.posted === false ? "0" : "1"]);
    },
    async peek(ref, subId, period) {
      const [value, time] = await Promise.all([redis.hget(key(ref, period), subId), redis.time()]);
      if (!value) return { kind: "none" };
      const done = claimState([0, value, 0], "");
      if (done.state === "done") return { kind: "done", outcome: done.outcome };
      const m = /^p\|([^|]*)\|(\d+)\|(\d*)$/.exec(value);
      const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
      const left = m ? Number(m[2]) - now : 0;
      const posting = m ? m[3] !== "" : false;
      // Released before its post went out, and nobody took it since: nothing can be in the channel.
      if (m && m[1] === "" && !posting) return { kind: "none" };
      return { kind: "pending", retryInMs: Math.max(left, 1_000), posting };
    },
  };
}

// KEYS: claims hash. ARGV: sub id, posting since ms ("" = nothing may be out). 1: the period may run
// again (reopened, or no claim left); 0: its claim is not a failure (delivered, skipped, in flight).
const REOPEN = script(`
local v = redis.call('hget', KEYS[1], ARGV[1])
if not v then return 1 end
if string.sub(v, 1, 2) ~= 'f|' then return 0 end
if ARGV[2] == '' then redis.call('hdel', KEYS[1], ARGV[1])
else redis.call('hset', KEYS[1], ARGV[1], 'p||0|' .. ARGV[2]) end
return 1`);

/**
 * Lets a period that failed for good run again (an operator's retry). Only a failed claim is
 * reopened: a delivered or skipped one, or one a worker holds, is left as it is. When a post of the
 * failed run may be in the channel (`postingSince`: a run that stalled or could not tell), the claim
 * is left released with that post noted, so the next run looks for it in the channel before posting.
 */
export async function reopenFailedClaim(
  o: { redis: RedisClient; keys: KeyScheme },
  ref: WorkspaceRef,
  subId: string,
  period: string,
  postingSince: number | null,
): Promise<boolean> {
  const reply = await runScript(
    o.redis,
    REOPEN,
    [o.keys.deliveryClaims(ref, period)],
    [subId, postingSince === null ? "" : String(postingSince)],
  );
  return reply === 1;
}
