import { randomBytes } from "node:crypto";
import { schedulerIdFor } from "../subscriptions/ids.ts";
import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import { type SlotSpec, slotSchedulerId } from "../subscriptions/slots.ts";
import { type DeliveryPolicy, type DeliveryQueue, deliveryJobOptions, JOB_NAME } from "./queue.ts";

const PAGE = 500;
const unique = () => `${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;

/**
 * The one place that writes BullMQ job schedulers: one per time slot, `slot.<slotId>`, with the slot's
 * cron pattern and IANA zone; its job is the slot's fan-out. Also enqueues the one-off jobs (test
 * sends, catch-ups, owner notices).
 */
export function createSchedulerSync(options: {
  queue: DeliveryQueue;
  policy: DeliveryPolicy;
}): SchedulerSync {
  const { queue, policy } = options;
  const opts = deliveryJobOptions(policy);

  /**
   * Upserting a scheduler is not idempotent in BullMQ: it deletes the current run's job if that is
   * still waiting and schedules the next run from now, so a worker start (reconcile) or a second join
   * while a run is due would drop it. Skip the write when the scheduler already says the same and its
   * next run is still pending.
   */
  async function unchanged(id: string, slot: SlotSpec): Promise<boolean> {
    const current = await queue.getJobScheduler(id);
    const t = current?.template;
    if (
      !current ||
      current.pattern !== slot.pattern ||
      current.tz !== slot.tz ||
      current.name !== JOB_NAME.slot
    )
      return false;
    if (t?.data?.slot !== slot.id || t.opts?.attempts !== opts.attempts) return false;
    if (t.data.gate !== slot.gate || t.data.pattern !== (slot.gate ? slot.pattern : undefined)) return false;
    if (typeof current.next !== "number") return false;
    const state = await queue.getJobState(`repeat:${id}:${current.next}`);
    return state === "delayed" || state === "waiting" || state === "prioritized" || state === "active";
  }

  return {
    async ensureSlot(slot) {
      const id = slotSchedulerId(slot.id);
      if (await unchanged(id, slot)) return false;
      // A gated slot's job carries its gate, zone and pattern: the fan-out checks each fire's local date.
      const gated = slot.gate !== undefined ? { gate: slot.gate, tz: slot.tz, pattern: slot.pattern } : {};
      await queue.upsertJobScheduler(
        id,
        { pattern: slot.pattern, tz: slot.tz },
        { name: JOB_NAME.slot, data: { slot: slot.id, ...gated }, opts },
      );
      return true;
    },
    async dropSlot(slotId) {
      await queue.removeJobScheduler(slotSchedulerId(slotId));
    },
    async enqueue(ref, subId, channelId, kind, period) {
      const sub = schedulerIdFor(ref, subId);
      // Unique, also for two calls in one millisecond (BullMQ drops a job whose id exists): a second
      // catch-up of one period must still run; the claim stops a repeat of a delivered one.
      const jobId = `${kind === "test" ? "send" : "catchup"}.${sub}.${period}.${unique()}`;
      await queue.add(JOB_NAME[kind], { sub, period, ch: channelId }, { ...opts, jobId });
      return jobId;
    },
    async notifyOwner(ref, subId, reason) {
      const sub = schedulerIdFor(ref, subId);
      await queue.add(JOB_NAME.notice, { sub, reason }, { ...opts, jobId: `notice.${sub}.${unique()}` });
    },
    async *schedulers() {
      for (let start = 0; ; start += PAGE) {
        const page = await queue.getJobSchedulers(start, start + PAGE - 1, true);
        for (const s of page)
          if (s?.key) {
            const gate = s.template?.data?.gate;
            yield {
              id: s.key,
              pattern: s.pattern ?? undefined,
              tz: s.tz ?? undefined,
              next: s.next,
              ...(typeof gate === "string" ? { gate } : {}),
            };
          }
        if (page.length < PAGE) return;
      }
    },
    async removeScheduler(id) {
      await queue.removeJobScheduler(id);
    },
  };
}
