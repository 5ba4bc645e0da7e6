import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { SCHEDULE_FIELDS } from "./codec.ts";
import { compactRef, isSubscriptionId, newSubscriptionId } from "./ids.ts";
import { createWorkspaceMaintenance, type ReconcileCounts } from "./maintenance.ts";
import { periodOf, testPeriod } from "./period.ts";
import { CHANNEL_REASONS } from "./reasons.ts";
import { MEASURE_FIELDS, MESSAGE_FIELDS } from "./run-state.ts";
import { nextRuns, previousRun } from "./schedule.ts";
import type { SchedulerSync } from "./scheduler-sync.ts";
import type { SlotLayout } from "./slot-layout.ts";
import type { SlotRegistry } from "./slot-registry.ts";
import { createSlotSync } from "./slot-sync.ts";
import { slotOf } from "./slots.ts";
import type { SubscriptionStore } from "./store.ts";
import type { Subscription, SubscriptionInput, SubscriptionPatch } from "./types.ts";
import { DEFAULT_LIMITS, type SubscriptionLimits, validateFields } from "./validate.ts";

/** Collaborators of the service; `limits` loosen validation in tests (every-second crons). */
export interface SubscriptionServiceOptions {
  store: SubscriptionStore;
  scheduler: SchedulerSync;
  registry: SlotRegistry;
  layout: SlotLayout;
  logger: Logger;
  clock?: () => Date;
  limits?: Partial<SubscriptionLimits>;
  /** Most subscriptions per workspace [200]. */
  maxPerWorkspace?: number;
}

/** A subscription with its next fire times (empty while paused). */
export interface Scheduled {
  subscription: Subscription;
  nextRuns: Date[];
}

/** The API the Slack layer (commands, App Home, channel events) and the worker use. */
export interface SubscriptionService {
  create(ref: WorkspaceRef, input: SubscriptionInput, ownerId: string): Promise<Scheduled>;
  list(ref: WorkspaceRef): Promise<Subscription[]>;
  listByChannel(ref: WorkspaceRef, channelId: string): Promise<Subscription[]>;
  get(ref: WorkspaceRef, id: string): Promise<Subscription | null>;
  update(ref: WorkspaceRef, id: string, patch: SubscriptionPatch): Promise<Scheduled>;
  remove(ref: WorkspaceRef, id: string): Promise<boolean>;
  /**
   * Stops deliveries (removes the scheduler) and records why. `since` is when deliveries stopped
   * [now]; a worker passes the fire time of the run that failed, so resume catches that run up.
   * Pausing a paused subscription updates the reason but keeps the first `pausedAt`.
   */
  pause(ref: WorkspaceRef, id: string, reason?: string, since?: Date): Promise<Subscription>;
  /** Restarts deliveries; enqueues one catch-up when the latest run was missed while paused. */
  resume(ref: WorkspaceRef, id: string): Promise<Scheduled & { catchUpPeriod: string | null }>;
  /** Enqueues an immediate one-off delivery (a "test send"), also for paused subscriptions. */
  sendNow(ref: WorkspaceRef, id: string): Promise<{ jobId: string; period: string }>;
  /** Pauses every active subscription of a channel (archived, deleted, bot removed); owners are told by DM. */
  pauseChannel(ref: WorkspaceRef, channelId: string, reason: string): Promise<Subscription[]>;
  /** Resumes the channel's subscriptions that were paused for a channel reason (unarchived, bot invited). */
  resumeChannel(ref: WorkspaceRef, channelId: string): Promise<Subscription[]>;
  /** Removes every subscription and scheduler of a workspace (uninstall); returns how many subscriptions. */
  removeWorkspace(ref: WorkspaceRef): Promise<number>;
  /**
   * Makes slots and schedulers match the records: heals memberships, registrations and schedulers,
   * removes strays, and replaces the per-subscription schedulers of older versions. Run at worker start.
   */
  reconcile(): Promise<ReconcileCounts>;
  /** The next `n` fire times of an active subscription; [] while paused. */
  nextRuns(sub: Subscription, n?: number): Date[];
}

/**
 * Fields an update must delete: options switched off, and what earlier runs left that no longer
 * applies (history and alert state measure one condition over one range and filter set; the message
 * being edited belongs to one conversation and style).
 */
function clearedBy(
  sub: Subscription,
  next: Omit<Subscription, "id" | "ref" | "ownerId" | "status" | "createdAt">,
) {
  const clear: string[] = [];
  if (sub.condition && !next.condition) clear.push("cond");
  if (sub.mode && !next.mode) clear.push("mode");
  if (sub.style && !next.style) clear.push("ds");
  if (sub.chart && !next.chart) clear.push("ch");
  if (sub.assetGroups?.length && !next.assetGroups?.length) clear.push("groups");
  const same = (a: string[], b: string[]) => a.join("\n") === b.join("\n");
  const measured =
    sub.condition !== next.condition ||
    sub.mode !== next.mode ||
    sub.range !== next.range ||
    sub.tz !== next.tz ||
    !same(sub.assetIds, next.assetIds) ||
    !same(sub.assetGroups ?? [], next.assetGroups ?? []) ||
    !same(sub.scannerIds, next.scannerIds);
  if (measured) clear.push(...MEASURE_FIELDS);
  if (sub.channelId !== next.channelId || sub.style !== next.style) clear.push(...MESSAGE_FIELDS);
  return clear;
}

const notFound = (id: string) =>
  new AppError("subscription_not_found", `There is no subscription ${id.slice(0, 20)} in this workspace.`, {
    details: { id: id.slice(0, 20) },
  });

/**
 * Subscriptions for the Slack layer: validated records, each active one a member of its time slot,
 * and one scheduler per slot, kept in step (see slot-sync.ts). Whatever a crash leaves half done is
 * healed by `reconcile` at worker start.
 */
export function createSubscriptionService(o: SubscriptionServiceOptions): SubscriptionService {
  const { store, scheduler, registry, layout, logger } = o;
  const slots = createSlotSync({ registry, scheduler });
  const clock = o.clock ?? (() => new Date());
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const maxPerWorkspace = o.maxPerWorkspace ?? 200;
  const maintenance = createWorkspaceMaintenance({
    store,
    scheduler,
    registry,
    slots,
    layout,
    logger,
    clock,
  });

  /** Writes `set` (and clears `clear`), moving slot membership as the change asks; not found if gone. */
  async function write(sub: Subscription, set: Partial<Subscription>, clear: readonly string[] = []) {
    const next = { ...sub, ...set };
    const r = await slots.move(slotOf(sub), slotOf(next), sub.ref, () => store.patch(sub, set, clear));
    if (!r.written) throw notFound(sub.id);
  }

  const upcoming = (sub: Subscription, n = 5) =>
    sub.status === "active" ? nextRuns(sub.schedule, sub.time, sub.tz, clock(), n) : [];

  async function load(ref: WorkspaceRef, id: string): Promise<Subscription> {
    const sub = isSubscriptionId(id) ? await store.get(ref, id) : null;
    if (!sub) throw notFound(String(id));
    return sub;
  }

  async function pauseOne(sub: Subscription, reason: string, since = clock()): Promise<Subscription> {
    const pausedAt = sub.status === "paused" && sub.pausedAt ? sub.pausedAt : since.toISOString();
    const set = { status: "paused" as const, pausedReason: reason.slice(0, 300), pausedAt };
    await write(sub, set);
    return { ...sub, ...set };
  }

  /**
   * The period to deliver on resume: the latest scheduled run, if it fell in the pause (a run that
   * paused the subscription counts: its pause starts at its fire time). Only one, however long the
   * pause: a catch-up, not a backlog. None when a digest (say, a test send after the fix) already
   * went out after that run was due. The claim keeps it from repeating a run that did go out.
   */
  function catchUpPeriod(sub: Subscription): string | null {
    const prev = previousRun(sub.schedule, sub.time, sub.tz, clock());
    if (!prev || !sub.pausedAt || prev.getTime() < Date.parse(sub.createdAt)) return null;
    const last = sub.lastDelivery;
    if (last?.outcome === "delivered" && Date.parse(last.at) >= prev.getTime()) return null;
    return prev.getTime() >= Date.parse(sub.pausedAt) ? periodOf(prev) : null;
  }

  async function resumeOne(sub: Subscription) {
    const catchUp = sub.status === "paused" ? catchUpPeriod(sub) : null;
    await write(sub, { status: "active" }, ["pausedReason", "pausedAt", "notified"]);
    const { pausedReason: _r, pausedAt: _a, ownerNotifiedReason: _n, ...rest } = sub;
    const resumed: Subscription = { ...rest, status: "active" };
    if (catchUp) await scheduler.enqueue(sub.ref, sub.id, sub.channelId, "catchUp", catchUp);
    return { subscription: resumed, nextRuns: upcoming(resumed), catchUpPeriod: catchUp };
  }

  return {
    async create(ref, input, ownerId) {
      if (typeof ownerId !== "string" || !/^[UW][A-Z0-9]{2,31}$/.test(ownerId))
        throw new AppError("invalid_subscription", "A subscription needs its owner's Slack user id.", {
          details: { field: "ownerId" },
        });
      const now = clock();
      const fields = validateFields(input, now, limits);
      if ((await store.count(ref)) >= maxPerWorkspace)
        throw new AppError(
          "too_many_subscriptions",
          `A workspace can have at most ${maxPerWorkspace} subscriptions.`,
        );
      let id = newSubscriptionId();
      while (await store.exists(ref, id)) id = newSubscriptionId();
      const sub: Subscription = {
        id,
        ref: compactRef(ref),
        ownerId,
        ...fields,
        status: "active",
        createdAt: now.toISOString(),
      };
      await slots.move(null, slotOf(sub), sub.ref, async () => {
        await store.insert(sub);
        return { left: 0 };
      });
      return { subscription: sub, nextRuns: upcoming(sub) };
    },
    list: (ref) => store.list(ref),
    listByChannel: (ref, channelId) => store.listByChannel(ref, channelId),
    get: (ref, id) => (isSubscriptionId(id) ? store.get(ref, id) : Promise.resolve(null)),
    async update(ref, id, patch) {
      const sub = await load(ref, id);
      const fields = validateFields({ ...sub, ...patch }, clock(), limits);
      const clear = [
        ...(fields.schedule.kind === sub.schedule.kind ? [] : SCHEDULE_FIELDS),
        ...clearedBy(sub, fields),
      ];
      await write(sub, fields, clear);
      const { condition: _c, mode: _m, style: _s, chart: _ch, assetGroups: _g, ...kept } = sub;
      const updated: Subscription = { ...kept, ...fields };
      if (clear.includes("as")) delete updated.runs;
      return { subscription: updated, nextRuns: upcoming(updated) };
    },
    async remove(ref, id) {
      const sub = isSubscriptionId(id) ? await store.get(ref, id) : null;
      if (!sub) return false;
      const r = await slots.move(slotOf(sub), null, sub.ref, () => store.remove(sub));
      return r.removed;
    },
    async pause(ref, id, reason = "paused_by_user", since) {
      return pauseOne(await load(ref, id), reason, since);
    },
    async resume(ref, id) {
      return resumeOne(await load(ref, id));
    },
    async sendNow(ref, id) {
      const sub = await load(ref, id);
      const period = testPeriod(clock());
      return { jobId: await scheduler.enqueue(sub.ref, sub.id, sub.channelId, "test", period), period };
    },
    async pauseChannel(ref, channelId, reason) {
      const paused: Subscription[] = [];
      for (const sub of await store.listByChannel(ref, channelId)) {
        if (sub.status !== "active") continue;
        paused.push(await pauseOne(sub, reason));
        await scheduler.notifyOwner(sub.ref, sub.id, reason);
      }
      return paused;
    },
    async resumeChannel(ref, channelId) {
      const resumed: Subscription[] = [];
      for (const sub of await store.listByChannel(ref, channelId)) {
        if (
          sub.status !== "paused" ||
          !(CHANNEL_REASONS as readonly string[]).includes(sub.pausedReason ?? "")
        )
          continue;
        resumed.push((await resumeOne(sub)).subscription);
      }
      return resumed;
    },
    removeWorkspace: (ref) => maintenance.removeWorkspace(ref),
    reconcile: () => maintenance.reconcile(),
    nextRuns: upcoming,
  };
}
