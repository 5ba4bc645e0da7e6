import type { InteractiveJob } from "./types.ts";

/**
 * The hand-off between web and worker processes: one Redis stream read by one consumer group.
 *   `<prefix>:<name>:requests`   stream of `{ j: <InteractiveJob as JSON> }` entries
 *   group `workers`              every worker process is a consumer of it
 * The web writes the requests of a few milliseconds with one command (a script that adds an entry
 * per request and answers the backlog, so admission control never reads it apart). A worker reads
 * new entries for its free slots, keeps the ones it runs fresh while they run, and acknowledges and
 * deletes each when done. An entry whose worker died
 * sits in the group's pending list until its idle time passes the lease, then another worker claims
 * it: delivered at least once, and answered once thanks to each request's claim (claims.ts).
 */

/** Default name; tests use their own. */
export const INTERACTIVE_STREAM = "interactive";
export const STREAM_GROUP = "workers";

/**
 * The hand-off's deadline, so a person is told it failed or gets the answer, never both. The web
 * process tries to write the request for `windowMs` after it came (a write that failed or timed out is
 * written again: the request's claim keeps two entries of it to one answer) and takes a reply that
 * arrives up to `graceMs` later as success. Without one, it tells the person the hand-off failed, at
 * `handOffBy + graceMs + 2 × skewMs` by its clock. A worker skips an entry that reached the stream
 * (its id is the server's clock) after `handOffBy + graceMs + skewMs`: `skewMs` is the difference
 * between the web host's and the Redis host's clocks it allows for. What remains is a write that landed
 * inside the window while every reply to it was lost: answered, and told it failed.
 */
export const HANDOFF = { windowMs: 15_000, graceMs: 2_000, skewMs: 1_000 } as const;

/**
 * How long after a request came a run that failed because Redis was away (or did not confirm a
 * write) is run again rather than answered with the error: the person then gets the answer once
 * Redis is back, instead of "something went wrong" for a failover of a few seconds.
 */
export const REDIS_RETRY_MS = 120_000;

/** Whether an entry reached the stream after its request's web process gave up on handing it off. */
export function handedOffLate(entryId: string, job: InteractiveJob): boolean {
  if (job.handOffBy === undefined) return false;
  const at = Number(entryId.split("-")[0]);
  return Number.isFinite(at) && at > job.handOffBy + HANDOFF.graceMs + HANDOFF.skewMs;
}

/** The stream's key. The prefix (QUEUE_PREFIX) is hash-tagged, so on a cluster it is in one slot. */
export const streamKey = (prefix: string, name = INTERACTIVE_STREAM) => `${prefix}:${name}:requests`;

/**
 * The backlog, as both scripts answer it: `{ waiting, waitedMs }`, the entries no worker has taken
 * yet (the stream's length minus the group's pending entries; without a group yet, all of them) and
 * how long the oldest of them has waited (entry ids are Redis's clock in ms; 0 when none waits).
 * Expects `group` (the consumer group's name) set before it.
 */
const BACKLOG_LUA = `
local len = redis.call('XLEN', KEYS[1])
local pending, last = 0, nil
local groups = redis.pcall('XINFO', 'GROUPS', KEYS[1])
if type(groups) == 'table' and not groups.err then
  for _, g in ipairs(groups) do
    local f = {}
    for i = 1, #g, 2 do f[g[i]] = g[i + 1] end
    if f['name'] == group then pending, last = f['pending'], f['last-delivered-id'] end
  end
end
local waiting = len - pending
if waiting <= 0 then return {0, 0} end
local first
if last then first = redis.call('XRANGE', KEYS[1], '(' .. last, '+', 'COUNT', 1)[1]
else first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1] end
if not first then return {waiting, 0} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local at = tonumber(string.match(first[1], '^(%d+)'))
return {waiting, math.max(0, now - at)}`;

/**
 * Adds requests, each an entry of its own, and answers the backlog (above), so admission control
 * never reads it apart. KEYS[1] stream; ARGV[1] approximate length cap, ARGV[2] group, ARGV[3..] the
 * jobs' JSON.
 */
export const ADD_SCRIPT = `
for i = 3, #ARGV do
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'j', ARGV[i])
end
local group = ARGV[2]
${BACKLOG_LUA}`;

/** The backlog alone. KEYS[1] stream; ARGV[1] group. */
export const DEPTH_SCRIPT = `
local group = ARGV[1]
${BACKLOG_LUA}`;

/**
 * Acknowledges and deletes an entry, unless another worker owns it now (it took the entry over while
 * this one was frozen): that one acknowledges it when its own run ends, so a takeover that then dies
 * still leaves the entry for a third. KEYS[1] stream; ARGV[1] group, ARGV[2] entry id, ARGV[3] consumer.
 */
export const DONE_SCRIPT = `
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if p[1] and p[1][2] ~= ARGV[3] then return 0 end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
return 1`;

/** A stream entry's job, or why it is not one (malformed entries are dropped, never retried). */
export function parseEntry(fields: string[]): InteractiveJob | string {
  const at = fields.indexOf("j");
  const raw = at >= 0 && at % 2 === 0 ? fields[at + 1] : undefined;
  if (raw === undefined) return "no job field";
  let job: unknown;
  try {
    job = JSON.parse(raw);
  } catch {
    return "not JSON";
  }
  const j = job as Partial<InteractiveJob> | null;
  if (!j || typeof j !== "object") return "not an object";
  if (j.v !== 1) return `unknown format ${String(j.v)}`;
  if (typeof j.id !== "string" || typeof j.route !== "object" || j.route === null) return "no id or route";
  if (typeof j.receivedAt !== "number" || typeof j.team !== "object" || j.team === null) return "no team";
  return j as InteractiveJob;
}
