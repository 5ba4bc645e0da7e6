import { randomUUID } from "node:crypto";
import type { Logger } from "../log.ts";
import type { WriteConfirmer } from "../store/confirm-writes.ts";
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

// KEYS: claims hash, record. ARGV: sub id, claim value, ttl ms, "1" = only over a claim without a verdict,
// n cleared, cleared..., field/value pairs. Returns -1 (a verdict was there: nothing written), 0 (no
// record), 1 (written), 2 (written over a claim that noted a post: it may be in the channel).
const FINISH = script(`
local v = redis.call('hget', KEYS[1], ARGV[1])
if ARGV[4] == '1' and v and string.sub(v, 1, 2) ~= 'p|' then return -1 end
local posting = v and string.match(v, '^p|[^|]*|%d+|%d+$') ~= nil
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
redis.call('pexpire', KEYS[1], ARGV[3])
if redis.call('exists', KEYS[2]) == 0 then return 0 end
local n = tonumber(ARGV[5])
for i = 6, 5 + n do redis.call('hdel', KEYS[2], ARGV[i]) end
redis.call('hset', KEYS[2], unpack(ARGV, 6 + n))
if posting then return 2 end
return 1`);

/** Run fields written with the verdict (see subscriptions/run-state.ts). */
export interface RunFields {
  set?: Record<string, string>;
  clear?: readonly string[];
}

const VERDICT = { delivered: "d", failed: "f", skipped: "s" } as const;

/**
 * What a finish wrote: `kept` when asked to write only over a claim without a verdict and one was
 * there; `no_record` when the subscription is gone (the claim is written all the same); `over_post`
 * when the claim it replaced had noted a post (a message may be in the channel).
 */
export type FinishResult = "kept" | "no_record" | "written" | "over_post";
const FINISHED: Record<number, FinishResult> = { [-1]: "kept", 0: "no_record", 1: "written", 2: "over_post" };

/**
 * The last round trip of a delivery: the claim's verdict, the record's last-delivery fields and what
 * the run leaves for the next one (history, alert state, the message to edit) in one script.
 * Overwrites whoever holds the claim: once a post went out, nobody may post again. With `unlessDone`
 * it leaves a claim that already has a verdict as it is (a give-up must not undo a delivery).
 */
export function createFinish(deps: {
  redis: RedisClient;
  keys: KeyScheme;
  doneTtlMs: number;
  /**
   * Waits for a replica to hold the verdict. One it does not confirm is still written: the post is
   * out, and the claim's replicated "posting" note leads a rerun to find it in the channel.
   */
  confirmer?: WriteConfirmer;
  logger?: Logger;
}) {
  return async function finish(
    sub: Subscription,
    period: string,
    last: LastDelivery,
    runs: RunFields = {},
    o: { unlessDone?: boolean } = {},
  ): Promise<FinishResult> {
    const fields = { ...lastFields(last), ...runs.set };
    const clear = [...LAST_FIELDS.filter((f) => !(f in fields)), ...(runs.clear ?? [])];
    const detail = last.outcome === "delivered" ? (last.messageTs ?? "") : (last.reason ?? "");
    const verdict = `${VERDICT[last.outcome]}|${detail.slice(0, 100)}`;
    const reply = await runScript(
      deps.redis,
      FINISH,
      [deps.keys.deliveryClaims(sub.ref, period), deps.keys.subscription(sub.ref, sub.id)],
      [
        sub.id,
        verdict,
        deps.doneTtlMs,
        o.unlessDone ? "1" : "0",
        clear.length,
        ...clear,
        ...Object.entries(fields).flat(),
      ],
    );
    if (deps.confirmer && !(await deps.confirmer.confirm()))
      deps.logger?.warn(
        { subId: sub.id, period, outcome: last.outcome },
        "no Redis replica acknowledged a delivery's verdict in time; a failover now makes its rerun look for the post in the channel",
      );
    return FINISHED[Number(reply)] ?? "written";
  };
}
