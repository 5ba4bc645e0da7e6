import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";

/**
 * The idempotency claim of one delivery: (subscription, period) → a string key.
 *   `p|<token>` with a lease (PX): a worker is delivering; if it dies the lease runs out and the next
 *              attempt takes over.
 *   `d|<ts>`   delivered (the message ts), kept `doneTtlMs` so retried or duplicated jobs skip it.
 *   `f|<code>` failed for good and already reported (one failure notice per period).
 */

export type ClaimState =
  | { state: "acquired"; token: string }
  | { state: "done"; outcome: "delivered" | "failed"; detail: string }
  | { state: "busy"; retryInMs: number };

/** Options of createDeliveryClaims. Defaults in brackets. */
export interface ClaimOptions {
  redis: Redis;
  keys: KeyScheme;
  /** How long a delivering worker holds the claim [120 s]; longer than one delivery takes. */
  leaseMs?: number;
  /** How long a finished claim is remembered [36 h]; longer than a job's retries last. */
  doneTtlMs?: number;
}

/** The claim operations of one delivery, keyed by (workspace, subscription, period). */
export interface DeliveryClaims {
  claim(ref: WorkspaceRef, subId: string, period: string): Promise<ClaimState>;
  /**
   * Re-checks the lease right before posting: extends it if ours, retakes it if it ran out unclaimed,
   * false if another worker took over or the period is done (then do not post).
   */
  confirm(ref: WorkspaceRef, subId: string, period: string, token: string): Promise<boolean>;
  /** Records the verdict. Overwrites whoever holds it: once a post went out, nobody may post again. */
  finish(
    ref: WorkspaceRef,
    subId: string,
    period: string,
    outcome: "delivered" | "failed",
    detail: string,
  ): Promise<void>;
  /**
   * Notes that a post for this period is about to go out. It outlives the lease, so a worker that
   * takes over after a crash knows a post may already be in the channel and looks before posting.
   */
  markPosting(ref: WorkspaceRef, subId: string, period: string): Promise<void>;
  /** When a post for this period was last about to go out (epoch ms), or null. */
  postingSince(ref: WorkspaceRef, subId: string, period: string): Promise<number | null>;
  /** Gives the claim up (nothing was posted), so a retry or catch-up can take it at once. */
  release(ref: WorkspaceRef, subId: string, period: string, token: string): Promise<void>;
  readonly leaseMs: number;
}

const CLAIM = `
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1, '', 0} end
return {0, redis.call('get', KEYS[1]) or '', redis.call('pttl', KEYS[1])}`;

// Ours: extend. Expired with nobody else in: take it back (else the run would be lost). Otherwise: not ours.
const CONFIRM = `
local v = redis.call('get', KEYS[1])
if v == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

/**
 * @example
 * const claims = createDeliveryClaims({ redis, keys });
 * const c = await claims.claim(ref, subId, "20261102T080000Z"); // { state: "acquired", token } the first time
 */
export function createDeliveryClaims(options: ClaimOptions): DeliveryClaims {
  const { redis, keys } = options;
  const leaseMs = options.leaseMs ?? 120_000;
  const doneTtlMs = options.doneTtlMs ?? 36 * 3_600_000;
  const key = keys.deliveryClaim;

  return {
    leaseMs,
    async claim(ref, subId, period) {
      const token = randomUUID();
      for (let i = 0; i < 3; i++) {
        const [ok, value, pttl] = (await redis.eval(
          CLAIM,
          1,
          key(ref, subId, period),
          `p|${token}`,
          leaseMs,
        )) as [number, string, number];
        if (ok === 1) return { state: "acquired", token };
        if (value.startsWith("d|")) return { state: "done", outcome: "delivered", detail: value.slice(2) };
        if (value.startsWith("f|")) return { state: "done", outcome: "failed", detail: value.slice(2) };
        if (value.startsWith("p|")) return { state: "busy", retryInMs: Math.max(pttl, 1) };
        // The key expired between SET and GET: try again.
      }
      return { state: "busy", retryInMs: 100 };
    },
    async confirm(ref, subId, period, token) {
      return (await redis.eval(CONFIRM, 1, key(ref, subId, period), `p|${token}`, leaseMs)) === 1;
    },
    async finish(ref, subId, period, outcome, detail) {
      await redis.set(
        key(ref, subId, period),
        `${outcome === "delivered" ? "d" : "f"}|${detail}`,
        "PX",
        doneTtlMs,
      );
    },
    async markPosting(ref, subId, period) {
      await redis.set(key(ref, subId, `${period}.posting`), String(Date.now()), "PX", doneTtlMs);
    },
    async postingSince(ref, subId, period) {
      const v = await redis.get(key(ref, subId, `${period}.posting`));
      return v && /^\d+$/.test(v) ? Number(v) : null;
    },
    async release(ref, subId, period, token) {
      await redis.eval(RELEASE, 1, key(ref, subId, period), `p|${token}`);
    },
  };
}
