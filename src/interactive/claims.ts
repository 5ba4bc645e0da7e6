import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { AppError } from "../errors.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";

/**
 * The claim of one handed-off request, so a request is answered once whatever happens to the
 * process computing it:
 *   `…:ireq:<id>`       `p|<token>` with a lease while a run holds it (renewed as it goes; a killed
 *                       run's lease runs out and the next run takes over), then `d` once answered.
 *   `…:ireq:<id>:sent`  set just before a run's first message goes out. It outlives the lease, so a
 *                       run taking over knows an answer may already be on screen and only repeats
 *                       what replaces in place (never a second message).
 */

export type RequestClaim =
  | { state: "acquired"; token: string; sent: boolean }
  | { state: "done" }
  | { state: "busy"; retryInMs: number };

/** Options of createRequestClaims. Defaults in brackets. */
export interface RequestClaimOptions {
  redis: Redis;
  keys: KeyScheme;
  /** How long a run holds the claim without renewing it [6 s]. */
  leaseMs?: number;
  /** How long an answered request is remembered [31 min]: past that its response_url is dead anyway. */
  doneTtlMs?: number;
}

export interface RequestClaims {
  claim(ref: WorkspaceRef, id: string): Promise<RequestClaim>;
  /** Extends our lease; false when it is no longer ours. */
  renew(ref: WorkspaceRef, id: string, token: string): Promise<boolean>;
  /** Notes that an answer is about to go out. */
  markSent(ref: WorkspaceRef, id: string): Promise<void>;
  /** The request is answered: later runs skip it. */
  finish(ref: WorkspaceRef, id: string): Promise<void>;
  readonly leaseMs: number;
}

const CLAIM = `
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  return {1, redis.call('exists', KEYS[2]), 0}
end
local v = redis.call('get', KEYS[1]) or ''
if v == 'd' then return {2, 0, 0} end
return {0, 0, redis.call('pttl', KEYS[1])}`;

const RENEW = `
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0`;

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
      const [state, sent, pttl] = (await redis.eval(CLAIM, 2, k, `${k}:sent`, `p|${token}`, leaseMs)) as [
        number,
        number,
        number,
      ];
      if (state === 1) return { state: "acquired", token, sent: sent === 1 };
      if (state === 2) return { state: "done" };
      return { state: "busy", retryInMs: Math.max(pttl, 1) };
    },
    async renew(ref, id, token) {
      return (await redis.eval(RENEW, 1, key(ref, id), `p|${token}`, leaseMs)) === 1;
    },
    async markSent(ref, id) {
      await redis.set(`${key(ref, id)}:sent`, "1", "PX", doneTtlMs);
    },
    async finish(ref, id) {
      await redis.set(key(ref, id), "d", "PX", doneTtlMs);
    },
  };
}
