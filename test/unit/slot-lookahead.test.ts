import { describe, expect, it } from "vitest";
import { createSlotLookahead, type SlotLookaheadDeps } from "../../src/jobs/slot-lookahead.ts";
import { silentLogger } from "../../src/log.ts";
import type { WorkspaceRef } from "../../src/store/keys.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { slotSchedulerId } from "../../src/subscriptions/slots.ts";

/**
 * Which slots the lookahead warms, and when: those whose next fire is after now and within the lead,
 * each fire once (the claim), every member of every workspace of the slot handed to the warm-up with
 * the fire's period, the schedulers read soonest first and no further than the lead.
 */

const NOW = Date.UTC(2026, 10, 28, 8, 59, 50);
const slot = (n: number) => `s${String(n).padStart(15, "0")}`;

function world(
  schedulers: { id: string; next: number | null; gate?: string; tz?: string }[],
  members: Record<string, number>,
) {
  const warmed: { team: string; members: string[]; period: string }[] = [];
  const claimed = new Map<string, number>();
  const walked: string[] = [];
  let pagesRead = 0;
  let schedulerReads = 0;
  const sorted = [...schedulers].sort((a, b) => (a.next ?? 0) - (b.next ?? 0));
  const deps: SlotLookaheadDeps = {
    queue: {
      async getJobSchedulers(start = 0, end = -1, asc = false) {
        expect(asc).toBe(true);
        schedulerReads++;
        const page = sorted.slice(start, end < 0 ? undefined : end + 1);
        return page.map((s) => ({
          key: s.id,
          name: "slot",
          next: s.next ?? undefined,
          ...(s.gate
            ? { tz: s.tz, template: { data: { slot: s.id.slice(5), gate: s.gate, tz: s.tz } } }
            : {}),
        })) as never;
      },
    },
    registry: {
      async workspaces() {
        return Object.keys(members).map((teamId): WorkspaceRef => ({ teamId }));
      },
    },
    store: {
      // Two members a page, so a workspace of five takes three pages.
      async slotPage(ref, _slot, cursor) {
        pagesRead++;
        const all = Array.from({ length: members[ref.teamId ?? ""] ?? 0 }, (_, i) => `${ref.teamId}-${i}`);
        const from = Number(cursor);
        const next = from + 2 < all.length ? String(from + 2) : "0";
        return { members: all.slice(from, from + 2).map((id): [string, string] => [id, "C1"]), cursor: next };
      },
    },
    warm(ref, m, period) {
      warmed.push({ team: ref.teamId ?? "", members: m.map(([id]) => id), period });
    },
    marks: {
      async claim(slotId, period, ttlMs) {
        const key = `${slotId}/${period}`;
        if (claimed.has(key)) return false;
        claimed.set(key, ttlMs);
        return true;
      },
      async walked(slotId, period, ttlMs) {
        // Noted once every member was handed over, under the claim's own TTL.
        expect(claimed.get(`${slotId}/${period}`)).toBe(ttlMs);
        walked.push(`${slotId}/${period}:${warmed.length}`);
      },
    },
    leadMs: 15_000,
    logger: silentLogger(),
    clock: () => new Date(NOW),
    pageSize: 2,
  };
  return {
    deps,
    lookahead: createSlotLookahead(deps),
    warmed,
    claimed,
    walked,
    reads: () => ({ pages: pagesRead, schedulers: schedulerReads }),
  };
}

describe("the slot lookahead", () => {
  it("warms every member of a slot due within the lead, with the fire's period, once per fire", async () => {
    const fire = NOW + 10_000;
    const w = world([{ id: slotSchedulerId(slot(1)), next: fire }], { T1: 5, T2: 1 });
    expect(await w.lookahead.tick()).toEqual([slot(1)]);
    const period = periodOf(fire);
    expect(w.warmed.every((x) => x.period === period)).toBe(true);
    expect(w.warmed.flatMap((x) => x.members).sort()).toEqual([
      "T1-0",
      "T1-1",
      "T1-2",
      "T1-3",
      "T1-4",
      "T2-0",
    ]);
    // Held until the lead has passed after the fire, so a late tick of another process skips it.
    expect(w.claimed.get(`${slot(1)}/${period}`)).toBe(25_000);
    // Noted as walked once all of its pages were handed over.
    expect(w.walked).toEqual([`${slot(1)}/${period}:${w.warmed.length}`]);
    // The next tick finds it claimed and walks nothing.
    const pages = w.reads().pages;
    expect(await w.lookahead.tick()).toEqual([]);
    expect(w.reads().pages).toBe(pages);
  });

  it("leaves slots due past the lead, slots already due, and schedulers that are not slots", async () => {
    const w = world(
      [
        { id: slotSchedulerId(slot(1)), next: NOW - 1 },
        { id: slotSchedulerId(slot(2)), next: NOW },
        { id: "not-a-slot", next: NOW + 1_000 },
        { id: slotSchedulerId(slot(3)), next: NOW + 15_000 },
        { id: slotSchedulerId(slot(4)), next: NOW + 15_001 },
        { id: slotSchedulerId(slot(5)), next: NOW + 60_000 },
        { id: slotSchedulerId(slot(6)), next: NOW + 120_000 },
      ],
      { T1: 1 },
    );
    expect(await w.lookahead.tick()).toEqual([slot(3)]);
    // Pages of two, soonest first: the third page holds the first slot past the lead, and the
    // fourth is never read.
    expect(w.reads().schedulers).toBe(3);
  });

  it("reads at most maxPages pages of schedulers a tick, however many are already due", async () => {
    const overdue = Array.from({ length: 100 }, (_, i) => ({
      id: slotSchedulerId(slot(100 + i)),
      next: NOW - 60_000 + i,
    }));
    const w = world([...overdue, { id: slotSchedulerId(slot(1)), next: NOW + 5_000 }], { T1: 1 });
    // Pages of two, ten of them: the slot due within the lead sits past them this tick.
    expect(await w.lookahead.tick()).toEqual([]);
    expect(w.reads().schedulers).toBe(10);
  });

  it("does not note a slot as walked when its walk fails part-way (the fan-out then warms it as before)", async () => {
    const fire = NOW + 10_000;
    const w = world([{ id: slotSchedulerId(slot(1)), next: fire }], { T1: 5, T2: 1 });
    const lookahead = createSlotLookahead({
      ...w.deps,
      store: {
        async slotPage(ref, slotId, cursor, count) {
          if (ref.teamId === "T2") throw new Error("redis went away");
          return w.deps.store.slotPage(ref, slotId, cursor, count);
        },
      },
    });
    await expect(lookahead.tick()).rejects.toThrow("redis went away");
    expect(w.warmed.length).toBeGreaterThan(0);
    expect(w.walked).toEqual([]);
  });

  it("keeps ticking after a failed tick, and stops when asked", async () => {
    let calls = 0;
    const w = world([], {});
    const failing = createSlotLookahead({
      queue: {
        async getJobSchedulers() {
          calls++;
          if (calls === 1) throw new Error("redis went away");
          return [];
        },
      },
      registry: { workspaces: async () => [] },
      store: { slotPage: async () => ({ members: [], cursor: "0" }) },
      warm: () => undefined,
      marks: { claim: async () => true, walked: async () => undefined },
      leadMs: 1_000,
      logger: silentLogger(),
    });
    failing.start(5);
    const end = Date.now() + 2_000;
    while (calls < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    await failing.stop();
    expect(calls).toBeGreaterThanOrEqual(3);
    const stoppedAt = calls;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toBe(stoppedAt);
    expect(w.warmed).toEqual([]);
  });

  it("skips a gated slot's fire that is not a run day (its fan-out deals nothing out), warms one that is", async () => {
    // NOW is Sat Nov 28 2026; the last working day of November 2026 is Mon Nov 30.
    const soon = NOW + 5_000;
    const w = world(
      [
        { id: slotSchedulerId(slot(1)), next: soon, gate: "last-workday", tz: "UTC" },
        { id: slotSchedulerId(slot(2)), next: soon, gate: "28", tz: "UTC" },
      ],
      { T1: 1 },
    );
    expect(await w.lookahead.tick()).toEqual([slot(2)]);
    expect(w.warmed.map((x) => x.period)).toEqual([periodOf(soon)]);
  });
});
