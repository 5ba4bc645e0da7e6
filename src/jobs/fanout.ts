import type { Tracer } from "@opentelemetry/api";
import type { Job } from "bullmq";
import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { schedulerIdFor } from "../subscriptions/ids.ts";
import { fireTimeOfJob, periodOf } from "../subscriptions/period.ts";
import { firesAt, gatedRunBetween } from "../subscriptions/schedule.ts";
import type { SlotRegistry } from "../subscriptions/slot-registry.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import { inSpan, NO_TRACING } from "../tracing.ts";
import {
  type DeliveryJobData,
  type DeliveryPolicy,
  type DeliveryQueue,
  deliveryJobOptions,
  JOB_NAME,
} from "./queue.ts";

/** What a slot's fan-out needs. */
export interface FanOutDeps {
  store: Pick<SubscriptionStore, "slotPage">;
  registry: Pick<SlotRegistry, "workspaces" | "leave">;
  queue: DeliveryQueue;
  policy: DeliveryPolicy;
  logger: Logger;
  /** Members read per workspace per round [100]. */
  pageSize?: number;
  /** Now, for a gated slot's late fire (see runOf) [the system clock]. */
  clock?: () => Date;
  /** Jobs per addBulk call [500]. */
  batchSize?: number;
  /** Workspaces read at once [64]. */
  parallel?: number;
  /** Members of one workspace dealt together in each round [RUN_LENGTH]. */
  runLength?: number;
  /** The most jobs the first round deals out [FIRST_ROUND]: past it, each workspace's first run is shorter. */
  firstRound?: number;
  /** Told each page of a workspace's members as it is read, so their drivers are planned ahead (slot-warm.ts). */
  warm?: (ref: WorkspaceRef, members: [string, string][], period: string) => void;
  /**
   * Whether this fire's members were all handed to the warm-up before the fire (slot-lookahead.ts): then
   * the pages are not handed over again (each member's record read a second time, at the busiest
   * moment). Members who joined after that walk compute their drivers with their delivery.
   */
  warmedAhead?: (slotId: string, period: string) => Promise<boolean>;
  /** Spans of the fan-out [none]. */
  tracer?: Tracer;
  /** The active span as a traceparent, carried by each delivery job so its span joins the slot's trace. */
  traceparent?: () => string | undefined;
}

/** Members of one workspace dealt together in each round, by default. */
export const RUN_LENGTH = 10;

/**
 * The first round's size, by default: about what two workers deliver in 15–20 s on a small machine
 * (10,000 subscriptions in 56 s beside people typing: 180 digests a second). A slot of more workspaces
 * than fit in it at a run each deals each a shorter first run, down to one member, so that every
 * workspace's first run goes out in about that time (its first member, before any workspace's second,
 * sooner).
 */
export const FIRST_ROUND = 3_000;

/** BullMQ's largest priority. */
const MAX_PRIORITY = 2_097_152;

/**
 * The job of a firing time slot: pages through the slot's members workspace by workspace and adds
 * one delivery job per member in bulk. Rounds deal each workspace a run of up to `runLength` members
 * in turn, so a workspace with thousands of subscriptions in the slot cannot push one with five to
 * the back of the queue: the five go out in the first round, beside the big one's first run. Each
 * job's priority is its round within its workspace, so the order survives pacing too: a job put back
 * by its channel's or workspace's budget comes back in at its round, ahead of a big workspace's tail,
 * not behind it. Every workspace's first member comes before any workspace's second (priority 1,
 * the rest of the first run 2, then 3, …): with five hundred workspaces and first runs of six, the
 * last workspace's first digest otherwise waited behind 3,000 others, half a minute on a small
 * machine, and now behind 499.
 *
 * Runs rather than one member of each workspace in turn past the first: a workspace's digests share
 * its account's drivers computation, which the slot's warm-up starts ahead of the fire in about the
 * same order. Dealt one at a time, every round would ask every account's computation at once, and
 * every delivery in flight would wait on its own while the machine computes them all; dealt in runs,
 * each computation serves the runs that follow it, and the warm-up keeps ahead of the deliveries.
 *
 * A gated slot's fire that is not a run day in its zone (month-day.ts) deals nothing out, unless it
 * ran late past a run day, which it then deals out in its place.
 *
 * The first round is bounded (FIRST_ROUND): in a slot of thousands of workspaces, runs of ten in the
 * first round would put tens of thousands of jobs ahead of the last workspace's second digest, so each
 * workspace's first run is then shorter (down to one member) and its later runs are of the usual length.
 *
 * Job ids are (subscription, period): a retried fan-out adds nothing twice while the jobs wait,
 * and a repeat of a delivered one stops at its claim. Workspaces found without members are pruned
 * from the slot's registry (it is kept a superset).
 */
export function fanOut(deps: FanOutDeps, job: Job<DeliveryJobData, unknown, string>) {
  return inSpan(
    deps.tracer ?? NO_TRACING.tracer,
    "slot.fanout",
    { "insights.slot": job.data.slot ?? "" },
    async (span) => {
      const out = await addDeliveries(deps, job, deps.traceparent?.());
      if (out.status === "fanned_out") span.setAttribute("insights.jobs", out.jobs);
      return out;
    },
  );
}

async function addDeliveries(deps: FanOutDeps, job: Job<DeliveryJobData, unknown, string>, tp?: string) {
  const slotId = job.data.slot ?? "";
  const fire = fireTimeOfJob(job);
  if (!slotId || fire === null) return { status: "skipped" as const, why: "no_slot" as const };
  const due = runOf(deps, job, fire);
  if (typeof due === "string") {
    deps.logger.debug({ slot: slotId, period: due, gate: job.data.gate }, "slot fire not a run day");
    return { status: "skipped" as const, why: "not_a_run_day" as const, period: due };
  }
  const period = periodOf(due.fire);
  const pageSize = deps.pageSize ?? 100;
  const runLength = Math.max(1, deps.runLength ?? RUN_LENGTH);
  const opts = deliveryJobOptions(deps.policy);
  const warm =
    deps.warm && !(await deps.warmedAhead?.(slotId, period).catch(() => false)) ? deps.warm : undefined;
  let lanes = (await deps.registry.workspaces(slotId)).map((ref) => ({
    ref,
    cursor: "0",
    started: false,
    rank: 0,
    /** The start of a run that a page's end cut off: it goes out whole with the next page. */
    carry: [] as [string, string][],
  }));
  const first = firstRunLength(lanes.length, runLength, deps.firstRound ?? FIRST_ROUND);
  let added = 0;
  let pending: {
    name: string;
    data: DeliveryJobData;
    opts: typeof opts & { jobId: string; priority: number };
  }[] = [];
  const flush = async (force: boolean) => {
    while (pending.length >= (deps.batchSize ?? 500) || (force && pending.length > 0)) {
      const batch = pending.splice(0, deps.batchSize ?? 500);
      await deps.queue.addBulk(batch);
      added += batch.length;
    }
  };
  while (lanes.length > 0) {
    const next: typeof lanes = [];
    for (let i = 0; i < lanes.length; i += deps.parallel ?? 64) {
      const group = lanes.slice(i, i + (deps.parallel ?? 64));
      const pages = await Promise.all(
        group.map((l) => deps.store.slotPage(l.ref, slotId, l.cursor, pageSize)),
      );
      const round: {
        lane: (typeof lanes)[number];
        runs: { priority: number; members: [string, string][] }[];
      }[] = [];
      pages.forEach((p, j) => {
        const lane = group[j] as (typeof lanes)[number];
        warm?.(lane.ref, p.members, period);
        if (!lane.started && p.cursor === "0" && p.members.length === 0) void prune(deps, slotId, lane.ref);
        // Pages are a hint's size (HSCAN's COUNT), not a multiple of the run: a run the page cuts
        // waits for the next page, so that every run of a workspace goes out whole.
        const members = [...lane.carry, ...p.members];
        const whole =
          p.cursor === "0" ? members.length : wholeRuns(lane.rank, members.length, first, runLength);
        lane.carry = members.slice(whole);
        round.push({ lane, runs: splitRuns(lane.rank, members.slice(0, whole), first, runLength) });
        lane.rank += whole;
        if (p.cursor !== "0") {
          lane.cursor = p.cursor;
          lane.started = true;
          next.push(lane);
        }
      });
      // Each group's jobs go out as soon as its pages are read: the first deliveries start after one
      // group's read, not after every workspace's (5,000 workspaces are 79 reads in a row). BullMQ
      // hands jobs out by priority, so a later group's first members still come before this one's
      // later runs. Within the group, the k-th run of every workspace, then the (k+1)-th.
      const longest = Math.max(0, ...round.map((r) => r.runs.length));
      for (let k = 0; k < longest; k++) {
        for (const r of round) {
          const run = r.runs[k];
          if (!run) continue;
          for (const m of run.members) {
            const sub = schedulerIdFor(r.lane.ref, m[0]);
            pending.push({
              name: JOB_NAME.scheduled,
              data: { sub, period, ch: m[1], ...(tp ? { tp } : {}) },
              opts: { ...opts, jobId: `d.${sub}.${period}`, priority: run.priority },
            });
          }
        }
      }
      await flush(i === 0);
    }
    lanes = next;
  }
  await flush(true);
  pending = [];
  deps.logger.info({ slot: slotId, period, jobs: added }, "slot fired");
  return { status: "fanned_out" as const, period, jobs: added };
}

/**
 * The run a slot's fire stands for: itself, unless its slot is gated (month-day.ts) and its local date
 * is not a run day. Then nothing (its period, as a string), or, when the fire ran late, the run day a
 * late fire jumped over (gatedRunBetween).
 */
function runOf(
  deps: Pick<FanOutDeps, "clock">,
  job: Job<DeliveryJobData, unknown, string>,
  fire: number,
): { fire: number } | string {
  const { gate, tz = "UTC", pattern } = job.data;
  if (gate === undefined || firesAt(gate, tz, new Date(fire))) return { fire };
  const now = (deps.clock ?? (() => new Date()))();
  const missed = pattern ? gatedRunBetween(pattern, tz, gate, new Date(fire), now) : null;
  return missed ? { fire: missed.getTime() } : periodOf(fire);
}

/** Each workspace's first run: runLength, shorter when that many of every workspace would not fit in the first round. */
export function firstRunLength(workspaces: number, runLength: number, firstRound: number): number {
  return Math.max(1, Math.min(runLength, Math.floor(firstRound / Math.max(1, workspaces))));
}

/**
 * Where the run holding a workspace's member at `rank` ends: its first member alone, then the rest of
 * its first run, then every runLength.
 */
function runEnd(rank: number, first: number, runLength: number): number {
  if (rank < 1) return 1;
  return rank < first ? first : first + (Math.floor((rank - first) / runLength) + 1) * runLength;
}

/**
 * The priority of a workspace's member at `rank`: 1 for its first member, 2 for the rest of its first
 * run, then one more for each run of runLength (BullMQ takes the lowest first).
 */
function priorityOf(rank: number, first: number, runLength: number): number {
  if (rank === 0) return 1;
  if (rank < first) return 2;
  return Math.floor((rank - first) / runLength) + (first > 1 ? 3 : 2);
}

/** How many of `count` members from `rank` on make whole runs (the rest wait for the next page). */
function wholeRuns(rank: number, count: number, first: number, runLength: number): number {
  let end = rank;
  while (runEnd(end, first, runLength) - rank <= count) end = runEnd(end, first, runLength);
  return end - rank;
}

/**
 * Members from `rank` on, cut into their runs, each with its priority (priorityOf), so a run put back
 * by pacing comes back in at its round.
 */
function splitRuns(
  rank: number,
  members: [string, string][],
  first: number,
  runLength: number,
): { priority: number; members: [string, string][] }[] {
  const runs: { priority: number; members: [string, string][] }[] = [];
  let at = 0;
  while (at < members.length) {
    const r = rank + at;
    const end = Math.min(members.length, runEnd(r, first, runLength) - rank);
    const priority = priorityOf(r, first, runLength);
    runs.push({ priority: Math.min(priority, MAX_PRIORITY), members: members.slice(at, end) });
    at = end;
  }
  return runs;
}

async function prune(deps: FanOutDeps, slotId: string, ref: WorkspaceRef) {
  await deps.registry
    .leave(slotId, ref)
    .catch((err: unknown) => deps.logger.warn({ err }, "slot prune failed"));
}
