import type { Block } from "../blockkit/types.ts";
import { AppError } from "../errors.ts";
import type { Measure, Periods } from "../insights/period-totals.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { scanKeys } from "../store/scan.ts";
import { lockToken, runScript, script } from "../store/scripts.ts";
import type { SnoozeKind } from "../subscriptions/alerts.ts";
import { fromHash } from "../subscriptions/codec.ts";
import type { Subscription } from "../subscriptions/types.ts";

/**
 * The alert state's writes, each one script on the subscription's hash (fields in run-state.ts), so
 * every transition is decided once, whoever asks twice: two workers checking different periods of one
 * alert never both decide a transition (a check applies only if no transition is pending, no newer
 * period was applied, and the state and snooze it read are still the ones stored); two clicks on
 * Acknowledge record one acknowledgement; a snooze pressed twice in a row by the same person is one
 * snooze; one person's feedback on one episode counts once, however often they press. Periods are
 * `YYYYMMDDTHHMMSSZ` and compare as strings. Every key carries the workspace's hash tag, so the
 * scripts that touch two keys run on a cluster too.
 */

// KEYS: record. ARGV: period, state read ('' = none), state to store ('' = keep), pending ('' = none),
// snooze read ('' = none). 1 applied, 0 lost the race (read again), -1 the record is gone.
const STEP = script(`
if redis.call('exists', KEYS[1]) == 0 then return -1 end
if redis.call('hexists', KEYS[1], 'aq') == 1 then return 0 end
local ap = redis.call('hget', KEYS[1], 'ap')
if ap and ap >= ARGV[1] then return 0 end
local told = redis.call('hget', KEYS[1], 'as') or ''
if told ~= ARGV[2] then return 0 end
if (redis.call('hget', KEYS[1], 'ez') or '') ~= ARGV[5] then return 0 end
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

// An episode can be changed from its message while it fires, and only that episode: a click on the
// message of an earlier episode, or after it cleared, changes nothing.
const FIRING = `
if redis.call('exists', KEYS[1]) == 0 then return {-1, ''} end
if redis.call('hget', KEYS[1], 'as') ~= 'f' or redis.call('hget', KEYS[1], 'ep') ~= ARGV[1] then return {0, ''} end`;

// KEYS: record. ARGV: episode, `ek` value. {1} recorded, {2, who} acknowledged already, {3} a
// transition is being told right now (try again), {0} not firing. A clear being told has already been
// decided: an acknowledgement now would be drawn on an episode that is over.
const ACK = script(`${FIRING}
if redis.call('hexists', KEYS[1], 'aq') == 1 then return {3, ''} end
local was = redis.call('hget', KEYS[1], 'ek')
if was then return {2, was} end
redis.call('hset', KEYS[1], 'ek', ARGV[2])
return {1, ''}`);

// KEYS: record. ARGV: episode, `ez` value, kind letter, user, now (s), window (s). {1} snoozed,
// {2, ez} the same person's same snooze a moment ago (a double click), {3} a transition is being
// told right now (try again), {0} not firing.
const SNOOZE = script(`${FIRING}
if redis.call('hexists', KEYS[1], 'aq') == 1 then return {3, ''} end
local was = redis.call('hget', KEYS[1], 'ez')
if was then
  local k, by, at = string.match(was, '^(%a)|[0-9a-z]*|([A-Z0-9]+)|([0-9a-z]+)$')
  if k == ARGV[3] and by == ARGV[4] and tonumber(ARGV[5]) - tonumber(at, 36) < tonumber(ARGV[6]) then
    return {2, was}
  end
end
redis.call('hset', KEYS[1], 'ez', ARGV[2])
return {1, ''}`);

// KEYS: record, votes. ARGV: vote field, '+' or '-', episode. {changed (1/0), useful, not useful}; {-1}
// for an episode the alert never had (none yet, or one after its latest). The counters on the record
// and the votes they count live as long as the alert (both go when it is deleted): a vote kept for less
// would count again once forgotten. A votes hash an earlier version gave an expiry loses it here.
const FEEDBACK = script(`
local latest = redis.call('hget', KEYS[1], 'ep')
if not latest or ARGV[3] > latest then return {-1, 0, 0} end
local was = redis.call('hget', KEYS[2], ARGV[1])
local changed = 0
if was ~= ARGV[2] then
  redis.call('hset', KEYS[2], ARGV[1], ARGV[2])
  redis.call('hincrby', KEYS[1], ARGV[2] == '+' and 'fu' or 'fd', 1)
  if was then redis.call('hincrby', KEYS[1], was == '+' and 'fu' or 'fd', -1) end
  changed = 1
end
redis.call('persist', KEYS[2])
return {changed, tonumber(redis.call('hget', KEYS[1], 'fu') or '0'), tonumber(redis.call('hget', KEYS[1], 'fd') or '0')}`);

// KEYS: draw lock, record, kept message. ARGV: token, lease ms. {1, record fields, message} with the
// lock taken, or {0} while another draw holds it: the state read here is the one the edit shows.
const DRAW = script(`
if not redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {0} end
return {1, redis.call('hgetall', KEYS[2]), redis.call('get', KEYS[3]) or ''}`);

// KEYS: draw lock. ARGV: token. Releases only the lock this draw took.
const UNDRAW = script(`
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`);

/**
 * The message of an episode, as fired, kept so each change redraws it: its blocks without the state
 * and controls (templates/alert-message.ts adds those), the notification line, and what its Why?
 * compares.
 */
export interface EpisodeBody {
  /** The episode (the period that fired it). */
  ep: string;
  channel: string;
  head: Block[];
  text: string;
  explain?: { periods: Periods; label: string; measure: Measure };
  cleared?: { at: string; reason: string };
}

/** Two presses of the same snooze by the same person this close together are one [10 s]. */
const SNOOZE_REPEAT_S = 10;
/**
 * How long one redraw of an episode's message may hold its lock: past a Slack call's timeout (10 s),
 * so a draw whose process died frees the message on its own [20 s].
 */
const DRAW_LEASE_MS = 20_000;
const DRAW_POLL_MS = 25;

/** The record and kept message of an alert as one redraw reads them, its lock held. */
export interface DrawState {
  sub: Subscription | null;
  body: EpisodeBody | null;
}

function parseBody(raw: string | null, ep?: string): EpisodeBody | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    return isBody(v) && (ep === undefined || v.ep === ep) ? v : null;
  } catch {
    return null;
  }
}

const isBody = (v: unknown): v is EpisodeBody => {
  const b = v as EpisodeBody | null;
  return (
    typeof b === "object" &&
    b !== null &&
    typeof b.ep === "string" &&
    typeof b.channel === "string" &&
    typeof b.text === "string" &&
    Array.isArray(b.head)
  );
};

export function createAlertState(o: { redis: RedisClient; keys: KeyScheme }) {
  const record = (ref: WorkspaceRef, subId: string) => [o.keys.subscription(ref, subId)];
  const pair = (r: unknown) => r as [number, string];
  return {
    /**
     * Applies one check of `period`: records it as the newest, stores `state` (or keeps it), and with
     * `pending` notes a transition whose post is about to go out. `snooze` is the `ez` value the check
     * read: a snooze pressed meanwhile makes it read again.
     */
    async step(
      ref: WorkspaceRef,
      subId: string,
      a: { period: string; read: string; state: string; pending: string; snooze?: string },
    ): Promise<"applied" | "raced" | "gone"> {
      const r = await runScript(o.redis, STEP, record(ref, subId), [
        a.period,
        a.read,
        a.state,
        a.pending,
        a.snooze ?? "",
      ]);
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
    /** Records who acknowledged episode `ep` (the `ek` value), once. */
    async acknowledge(
      ref: WorkspaceRef,
      subId: string,
      ep: string,
      value: string,
    ): Promise<{ outcome: "done" | "already" | "busy" | "over" | "gone"; was?: string }> {
      const [r, was] = pair(await runScript(o.redis, ACK, record(ref, subId), [ep, value]));
      return r === 1
        ? { outcome: "done" }
        : r === 2
          ? { outcome: "already", was }
          : r === 3
            ? { outcome: "busy" }
            : { outcome: r === 0 ? "over" : "gone" };
    },
    /** Snoozes episode `ep` (the `ez` value), once per press. */
    async snooze(
      ref: WorkspaceRef,
      subId: string,
      ep: string,
      s: { value: string; kind: SnoozeKind; by: string; at: Date },
    ): Promise<"done" | "repeat" | "busy" | "over" | "gone"> {
      const [r] = pair(
        await runScript(o.redis, SNOOZE, record(ref, subId), [
          ep,
          s.value,
          s.kind[0] as string,
          s.by,
          Math.floor(s.at.getTime() / 1000),
          SNOOZE_REPEAT_S,
        ]),
      );
      return r === 1 ? "done" : r === 2 ? "repeat" : r === 3 ? "busy" : r === 0 ? "over" : "gone";
    },
    /** One person's feedback on one episode; the alert's counts after it. */
    async feedback(
      ref: WorkspaceRef,
      subId: string,
      a: { ep: string; user: string; useful: boolean },
    ): Promise<{ changed: boolean; useful: number; notUseful: number } | null> {
      const [changed, useful, notUseful] = (await runScript(
        o.redis,
        FEEDBACK,
        [o.keys.subscription(ref, subId), o.keys.alertFeedback(ref, subId)],
        [`${a.ep}:${a.user}`, a.useful ? "+" : "-", a.ep],
      )) as [number, number, number];
      return changed < 0 ? null : { changed: changed === 1, useful, notUseful };
    },
    /**
     * Keeps the message of an episode (overwriting the previous episode's), with no expiry: an episode
     * can fire for months, and its all-clear and every click redraw this message. It goes when the
     * alert is deleted, or is replaced by the next episode's.
     */
    async saveBody(ref: WorkspaceRef, subId: string, body: EpisodeBody): Promise<void> {
      await o.redis.set(o.keys.alertMessage(ref, subId), JSON.stringify(body));
    },
    /**
     * Takes the expiry off every kept message and votes hash that earlier versions wrote with one (30
     * days from their last write), so none of them ends before its alert. Returns how many it found.
     */
    async keepAll(): Promise<number> {
      let n = 0;
      for (const pattern of o.keys.alertRecordPatterns())
        for await (const page of scanKeys(o.redis, pattern)) {
          await Promise.all(page.map((key) => o.redis.persist(key)));
          n += page.length;
        }
      return n;
    },
    /** The kept message of the alert's latest episode, if it is `ep`'s. */
    async body(ref: WorkspaceRef, subId: string, ep?: string): Promise<EpisodeBody | null> {
      return parseBody(await o.redis.get(o.keys.alertMessage(ref, subId)), ep);
    },
    /**
     * Runs `draw` (a redraw of the alert's message) with the alert's draw lock held, on the record and
     * kept message read when the lock was taken. Redraws of one alert's message go out one at a time,
     * each from the state after every change made before it began: a draw that read a state and
     * edits later can never land after the draw of a newer one (a click's "acknowledged" after the
     * worker's all-clear). Waits while another draw holds the lock, at most its lease.
     *
     * @throws AppError `alert_busy` when the lock stays held past a lease (a clock or Redis fault).
     */
    async drawing<T>(ref: WorkspaceRef, subId: string, draw: (s: DrawState) => Promise<T>): Promise<T> {
      const lock = o.keys.lock(ref, `alert-draw-${subId}`);
      const token = lockToken();
      const keys = [lock, o.keys.subscription(ref, subId), o.keys.alertMessage(ref, subId)];
      const deadline = Date.now() + 2 * DRAW_LEASE_MS;
      for (;;) {
        const r = (await runScript(o.redis, DRAW, keys, [token, DRAW_LEASE_MS])) as
          | [0]
          | [1, string[], string];
        if (r[0] === 1) {
          const flat = r[1];
          const hash: Record<string, string> = {};
          for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i] as string] = flat[i + 1] as string;
          try {
            return await draw({ sub: fromHash(subId, ref, hash), body: parseBody(r[2]) });
          } finally {
            await runScript(o.redis, UNDRAW, [lock], [token]);
          }
        }
        if (Date.now() > deadline)
          throw new AppError("alert_busy", "The alert's message is being redrawn; try again in a moment.");
        await new Promise((resolve) => setTimeout(resolve, DRAW_POLL_MS));
      }
    },
  };
}

export type AlertStateStore = ReturnType<typeof createAlertState>;
