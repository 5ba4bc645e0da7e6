import { randomUUID } from "node:crypto";
import { AppError } from "../errors.ts";
import { type WriteConfirmer, WriteUnconfirmed } from "../store/confirm-writes.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { runScript, script } from "../store/scripts.ts";

/**
 * The claim of one handed-off request, so a request is answered once whatever happens to the
 * process computing it:
 *   `…:ireq:<id>`       `p|<token>` with a lease while a run holds it (renewed as it goes; a killed
 *                       run's lease runs out and the next run takes over), then `d` once answered,
 *                       or `g` once the web process gave up handing it off (and told the person).
 *   `…:ireq:<id>:sent`  the run's token, set just before its first message goes out, once the run has confirmed
 *                       the claim is still its own (a run that froze and lost it sends nothing). It
 *                       outlives the lease, so a run taking over knows an answer may already be on
 *                       screen and only repeats what replaces in place (never a second message).
 *                       Dropped once the request is answered: `d` says as much, in one key instead of two
 *                       (a busy hour's answered requests are most of what Redis holds for them).
 * Where Redis has a replica to fail over to, the claim and its `sent` mark must be held by the replica
 * before the answer goes out (`confirmer`): a run on a primary cut off from the rest, whose writes a
 * failover throws away, would otherwise answer, and the run after the failover answer again.
 */

export type RequestClaim =
  | { state: "acquired"; token: string; sent: boolean }
  | { state: "done" }
  | { state: "busy"; retryInMs: number };

/** Options of createRequestClaims. Defaults in brackets. */
export interface RequestClaimOptions {
  redis: RedisClient;
  keys: KeyScheme;
  /** How long a run holds the claim without renewing it [6 s]. */
  leaseMs?: number;
  /** How long an answered request is remembered [31 min]: past that its response_url is dead anyway. */
  doneTtlMs?: number;
  /**
   * Waits for a replica to hold the `sent` mark before an answer goes out (on the connection `redis`,
   * which must be the one it waits on) [none: nothing waited for].
   */
  confirmer?: WriteConfirmer;
}

export interface RequestClaims {
  claim(ref: WorkspaceRef, id: string): Promise<RequestClaim>;
  /** Extends our lease; false when it is no longer ours. */
  renew(ref: WorkspaceRef, id: string, token: string): Promise<boolean>;
  /**
   * Right before a run's first answer goes out: true when the claim is still the run's own (it is
   * extended, and the request marked as possibly answered); false when another run took it over or
   * answered, and then this run must not send anything. Throws WriteUnconfirmed (`redis_unconfirmed`)
   * when no replica acknowledged the mark in time: nothing may go out, and the request runs again.
   */
  confirmSending(ref: WorkspaceRef, id: string, token: string): Promise<boolean>;
  /** The request is answered: later runs skip it. A no-op for a run that lost the claim to another. */
  finish(ref: WorkspaceRef, id: string, token: string): Promise<void>;
  /**
   * The web process gave up handing the request off: true when no run has marked an answer as going
   * out (nor answered), and then none ever will (the claim is closed, `d`), so the person may be told it
   * failed; false when an answer is or may be out, and then the person must not be told it failed.
   */
  giveUp(ref: WorkspaceRef, id: string): Promise<boolean>;
  readonly leaseMs: number;
}

const CLAIM = script(`
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  return {1, redis.call('exists', KEYS[2]), 0}
end
local v = redis.call('get', KEYS[1]) or ''
if v == 'd' or v == 'g' then return {2, 0, 0} end
return {0, 0, redis.call('pttl', KEYS[1])}`);

const RENEW = script(`
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0`);

// Ours, or lapsed with nobody else in (taken back): mark the answer as going out, unless an earlier
// run's mark is there (it may have answered; its mark must outlive this run). Otherwise: not ours.
const CONFIRM = script(`
local v = redis.call('get', KEYS[1])
if v ~= ARGV[1] and v then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
if redis.call('exists', KEYS[2]) == 0 then redis.call('set', KEYS[2], ARGV[1], 'PX', ARGV[3]) end
return 1`);

// A run whose mark no replica confirmed sent nothing: its own mark (not an earlier run's) and its claim
// go, so the next run takes the request at once and answers in full unless an earlier run may have.
const UNSEND = script(`
if redis.call('get', KEYS[2]) == ARGV[1] then redis.call('del', KEYS[2]) end
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
return 0`);

const FINISH = script(`
local v = redis.call('get', KEYS[1])
if v == ARGV[1] or not v then
  redis.call('set', KEYS[1], 'd', 'PX', ARGV[2])
  redis.call('del', KEYS[2])
  return 1
end
return 0`);

// Closed (`g`) unless an answer may be out: a run's mark, or the request answered. Idempotent: a
// repeat (an earlier try whose reply was lost, sent when Redis came back) finds its own `g`.
const GIVE_UP = script(`
if redis.call('exists', KEYS[2]) == 1 then return 0 end
local v = redis.call('get', KEYS[1])
if v == 'g' then return 1 end
if v == 'd' then return 0 end
redis.call('set', KEYS[1], 'g', 'PX', ARGV[1])
return 1`);

const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * @example
 * const claims = createRequestClaims({ redis, keys });
 * const c = await claims.claim(ref, job.id); // { state: "acquired", token, sent: false } the first time
 */
export function createRequestClaims(o: RequestClaimOptions): RequestClaims {
  const { redis, keys } = o;
  const leaseMs = o.leaseMs ?? 6_000;
  const doneTtlMs = o.doneTtlMs ?? 31 * 60_000;
  const key = (ref: WorkspaceRef, id: string) => {
    if (!REQUEST_ID.test(id)) throw new AppError("bad_request", "The request id is not valid.");
    return `${keys.namespace(ref)}:ireq:${id}`;
  };

  return {
    leaseMs,
    async claim(ref, id) {
      const k = key(ref, id);
      const token = randomUUID();
      const [state, sent, pttl] = (await runScript(
        redis,
        CLAIM,
        [k, `${k}:sent`],
        [`p|${token}`, leaseMs],
      )) as [number, number, number];
      if (state === 1) return { state: "acquired", token, sent: sent === 1 };
      if (state === 2) return { state: "done" };
      return { state: "busy", retryInMs: Math.max(pttl, 1) };
    },
    async renew(ref, id, token) {
      return (await runScript(redis, RENEW, [key(ref, id)], [`p|${token}`, leaseMs])) === 1;
    },
    async confirmSending(ref, id, token) {
      const k = key(ref, id);
      const ours =
        (await runScript(redis, CONFIRM, [k, `${k}:sent`], [`p|${token}`, leaseMs, doneTtlMs])) === 1;
      if (ours && o.confirmer && !(await o.confirmer.confirm())) {
        await runScript(redis, UNSEND, [k, `${k}:sent`], [`p|${token}`]).catch(() => undefined);
        throw new WriteUnconfirmed(o.confirmer.timeoutMs, "the request's claim");
      }
      return ours;
    },
    async finish(ref, id, token) {
      const k = key(ref, id);
      await runScript(redis, FINISH, [k, `${k}:sent`], [`p|${token}`, doneTtlMs]);
    },
    async giveUp(ref, id) {
      const k = key(ref, id);
      return (await runScript(redis, GIVE_UP, [k, `${k}:sent`], [doneTtlMs])) === 1;
    },
  };
}
