import { randomBytes } from "node:crypto";

/**
 * Delivery periods: the idempotency key's second half. A scheduled run's period is its fire time
 * (the same for every copy of that run, whichever worker or retry handles it); a test send gets a
 * fresh one so it never collides with a scheduled run.
 */

/** `20261102T080000Z`: key-safe (no ':'), sortable, readable. */
export function periodOf(fireTime: Date | number): string {
  return new Date(fireTime)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
}

/** The instant of a scheduled period, or null for test-send periods. */
export function periodTime(period: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(period);
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : null;
}

/** A unique period for a test send. */
export function testPeriod(now: Date): string {
  return `send-${now.getTime().toString(36)}-${randomBytes(3).toString("hex")}`;
}

/**
 * The fire time of a job made by a BullMQ job scheduler: `opts.prevMillis` (set by the scheduler),
 * else the `<millis>` at the end of the id `repeat:<schedulerId>:<millis>`.
 */
export function fireTimeOfJob(job: { id?: string; opts: { prevMillis?: number } }): number | null {
  if (typeof job.opts.prevMillis === "number" && job.opts.prevMillis > 0) return job.opts.prevMillis;
  const m = /^repeat:[^:]+:(\d+)$/.exec(job.id ?? "");
  return m ? Number(m[1]) : null;
}
