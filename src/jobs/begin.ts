import { randomUUID } from "node:crypto";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { runScript, script } from "../store/scripts.ts";
import { fromHash, LAST_FIELDS, lastFields } from "../subscriptions/codec.ts";
import type { LastDelivery, Subscription } from "../subscriptions/types.ts";
import { CLAIM_LUA, CLAIM_LUA_HEAD, type ClaimState, claimState } from "./claims.ts";

/**
 * The first round trip of a delivery: the subscription record, the workspace's sealed API key hash and
 * the claim of the period, in one script (all three share the workspace's hash tag). A paused
 * subscription is not claimed unless the job delivers while paused (a test send).
 */

// KEYS: record, api key hash, claims hash. ARGV: sub id, token, lease ms, ttl ms, "1" = claim only if active.
const BEGIN = script(`${CLAIM_LUA_HEAD}
local rec = redis.call('hgetall', KEYS[1])
if #rec == 0 then return {rec, {}, false} end
local key = redis.call('hgetall', KEYS[2])
if ARGV[5] == '1' and redis.call('hget', KEYS[1], 'status') == 'paused' then return {rec, key, false} end
local function claim()
${CLAIM_LUA.replace(/KEYS\[1\]/g, "KEYS[3]")}
end
return {rec, key, claim()}`);

export interface Begun {
  sub: Subscription | null;
  /** The API key hash as stored (sealed); empty when not connected. */
  apiKeyHash: Record<string, string>;
  /** Null when not claimed (gone, or paused). */
  claim: ClaimState | null;
}

const pairs = (flat: string[]): Record<string, string> => {
  const o: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) o[flat[i] as string] = flat[i + 1] as string;
  return o;
};

export function createBegin(o: { redis: RedisClient; keys: KeyScheme; leaseMs: number; doneTtlMs: number }) {
  return async function begin(
    ref: WorkspaceRef,
    subId: string,
    period: string,
    onlyActive: boolean,
  ): Promise<Begun> {
    const token = randomUUID();
    const [rec, key, claim] = (await runScript(
      o.redis,
      BEGIN,
      [o.keys.subscription(ref, subId), o.keys.apiKey(ref), o.keys.deliveryClaims(ref, period)],
      [subId, token, o.leaseMs, o.doneTtlMs, onlyActive ? "1" : "0"],
    )) as [string[], string[], [number, string, number] | null];
    return {
      sub: fromHash(subId, ref, pairs(rec)),
      apiKeyHash: pairs(key),
      claim: claim ? claimState(claim, token) : null,
    };
  };
}

// KEYS: claims hash, record. ARGV: sub id, claim value, ttl ms, n cleared, cleared..., field/value pairs.
const FINISH = script(`
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
redis.call('pexpire', KEYS[1], ARGV[3])
if redis.call('exists', KEYS[2]) == 0 then return 0 end
local n = tonumber(ARGV[4])
for i = 5, 4 + n do redis.call('hdel', KEYS[2], ARGV[i]) end
redis.call('hset', KEYS[2], unpack(ARGV, 5 + n))
return 1`);

/** Run fields written with the verdict (see subscriptions/run-state.ts). */
export interface RunFields {
  set?: Record<string, string>;
  clear?: readonly string[];
}

const VERDICT = { delivered: "d", failed: "f", skipped: "s" } as const;

/**
 * The last round trip of a delivery: the claim's verdict, the record's last-delivery fields and what
 * the run leaves for the next one (history, alert state, the message to edit) in one script.
 * Overwrites whoever holds the claim: once a post went out, nobody may post again.
 */
export function createFinish(o: { redis: RedisClient; keys: KeyScheme; doneTtlMs: number }) {
  return async function finish(
    sub: Subscription,
    period: string,
    last: LastDelivery,
    runs: RunFields = {},
  ): Promise<void> {
    const fields = { ...lastFields(last), ...runs.set };
    const clear = [...LAST_FIELDS.filter((f) => !(f in fields)), ...(runs.clear ?? [])];
    const detail = last.outcome === "delivered" ? (last.messageTs ?? "") : (last.reason ?? "");
    const verdict = `${VERDICT[last.outcome]}|${detail.slice(0, 100)}`;
    await runScript(
      o.redis,
      FINISH,
      [o.keys.deliveryClaims(sub.ref, period), o.keys.subscription(sub.ref, sub.id)],
      [sub.id, verdict, o.doneTtlMs, clear.length, ...clear, ...Object.entries(fields).flat()],
    );
  };
}
