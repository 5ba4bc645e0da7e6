import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { runScript, script } from "../store/scripts.ts";

/**
 * The alert state's writes, each one script on the subscription's hash (fields in run-state.ts), so
 * two workers checking different periods of one alert never both decide a transition: a check applies
 * only if no transition is pending, no newer period was applied, and the state it read is still the
 * state stored. Periods are `YYYYMMDDTHHMMSSZ` and compare as strings.
 */

// KEYS: record. ARGV: period, state read ('' = none), state to store ('' = keep), pending ('' = none).
// 1 applied, 0 lost the race (read again), -1 the record is gone.
const STEP = script(`
if redis.call('exists', KEYS[1]) == 0 then return -1 end
if redis.call('hexists', KEYS[1], 'aq') == 1 then return 0 end
local ap = redis.call('hget', KEYS[1], 'ap')
if ap and ap >= ARGV[1] then return 0 end
local told = redis.call('hget', KEYS[1], 'as') or ''
if told ~= ARGV[2] then return 0 end
redis.call('hset', KEYS[1], 'ap', ARGV[1])
if ARGV[3] ~= '' then redis.call('hset', KEYS[1], 'as', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('hset', KEYS[1], 'aq', ARGV[4]) end
return 1`);

// KEYS: record. ARGV: pending value, state to store ('' = drop the transition unannounced).
const SETTLE = script(`
if redis.call('hget', KEYS[1], 'aq') ~= ARGV[1] then return 0 end
redis.call('hdel', KEYS[1], 'aq')
if ARGV[2] ~= '' then redis.call('hset', KEYS[1], 'as', ARGV[2]) end
return 1`);

export function createAlertState(o: { redis: RedisClient; keys: KeyScheme }) {
  const record = (ref: WorkspaceRef, subId: string) => [o.keys.subscription(ref, subId)];
  return {
    /**
     * Applies one check of `period`: records it as the newest, stores `state` (or keeps it), and with
     * `pending` notes a transition whose post is about to go out.
     */
    async step(
      ref: WorkspaceRef,
      subId: string,
      a: { period: string; read: string; state: string; pending: string },
    ): Promise<"applied" | "raced" | "gone"> {
      const r = await runScript(o.redis, STEP, record(ref, subId), [a.period, a.read, a.state, a.pending]);
      return r === 1 ? "applied" : r === 0 ? "raced" : "gone";
    },
    /**
     * Ends a pending transition that will never be posted by its own run (it failed for good, or was
     * released before posting): dropped, so the next check decides afresh against what was told.
     * With `state`, the transition is recorded as told instead (its post was found after all).
     */
    async settle(ref: WorkspaceRef, subId: string, pending: string, state = ""): Promise<boolean> {
      return (await runScript(o.redis, SETTLE, record(ref, subId), [pending, state])) === 1;
    },
  };
}

export type AlertStateStore = ReturnType<typeof createAlertState>;
