import { randomId } from "../random-id.ts";
import type { KeyScheme, WorkspaceRef } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";
import { runScript, script } from "./scripts.ts";

/**
 * The claim of a proposal's Confirm, so one proposal makes one subscription however often it is
 * pressed: a double click (each click its own job), a retried job, or a button left on screen when
 * its message could not be replaced by the confirmation.
 *   `…:askconfirm:<proposal id>`  `p|<token>` while one run writes the subscription (a short lease:
 *                                 only the write runs under it), then `d|<subscription id>` for as
 *                                 long as the proposal can be confirmed.
 */

export type ProposalClaim =
  | { state: "acquired"; token: string }
  | { state: "done"; subscriptionId: string }
  | { state: "busy"; retryInMs: number };

type Deps = { redis: RedisClient; keys: KeyScheme };

const CLAIM = script(`
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1, '', 0} end
local v = redis.call('get', KEYS[1]) or ''
if string.sub(v, 1, 2) == 'd|' then return {2, string.sub(v, 3), 0} end
return {0, '', redis.call('pttl', KEYS[1])}`);

// Ours, or lapsed with nobody else in: the proposal is done. A run that lost its lease to another
// changes nothing (the other's outcome stands).
const FINISH = script(`
local v = redis.call('get', KEYS[1])
if v == ARGV[1] or not v then redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end
return 0`);

const RELEASE = script(`
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`);

/** Takes the proposal for this run for `leaseMs`, or says who has it: done (by which subscription) or busy. */
export async function claimProposal(
  deps: Deps,
  ref: WorkspaceRef,
  id: string,
  leaseMs: number,
): Promise<ProposalClaim> {
  const token = randomId();
  const [state, subscriptionId, pttl] = (await runScript(
    deps.redis,
    CLAIM,
    [deps.keys.proposalClaim(ref, id)],
    [`p|${token}`, leaseMs],
  )) as [number, string, number];
  if (state === 1) return { state: "acquired", token };
  if (state === 2) return { state: "done", subscriptionId };
  return { state: "busy", retryInMs: Math.max(pttl, 1) };
}

/** The proposal made `subscriptionId`: later presses learn it for `ttlMs`. False when the lease was lost. */
export async function finishProposal(
  deps: Deps,
  ref: WorkspaceRef,
  id: string,
  token: string,
  subscriptionId: string,
  ttlMs: number,
): Promise<boolean> {
  const k = deps.keys.proposalClaim(ref, id);
  return (await runScript(deps.redis, FINISH, [k], [`p|${token}`, `d|${subscriptionId}`, ttlMs])) === 1;
}

/** Gives the proposal back (the subscription could not be made): the next press tries again. */
export async function releaseProposal(
  deps: Deps,
  ref: WorkspaceRef,
  id: string,
  token: string,
): Promise<void> {
  await runScript(deps.redis, RELEASE, [deps.keys.proposalClaim(ref, id)], [`p|${token}`]);
}
