import { describe, expect, it } from "vitest";
import type { InsightsResult } from "../../src/analytics/types.ts";
import { createSharedLists } from "../../src/digests/shared-lists.ts";
import { oneDayInsights } from "../fixtures/analytics-contract.ts";

/**
 * Replies of one account carry equal asset and scanner lists, parsed afresh each time; they are handed
 * on holding the same list objects, so the templates' per-list work (usable choices, menus) is done once.
 */
const reply = (assets: string[], scanners = ["sast"]): InsightsResult => ({
  ...oneDayInsights("2026-11-02", { findings: 0, violations: 0, fixes: 0, merged: 0 }),
  filters: {
    assetId: assets.map((a) => ({ value: a, displayValue: a.toUpperCase() })),
    scannerId: scanners.map((s) => ({ value: s, displayValue: s })),
  },
});

describe("an account's lists shared across its replies", () => {
  it("gives equal lists as one object, and a changed list as the new one", () => {
    const share = createSharedLists();
    const first = share("acct-a", reply(["a1", "a2"]));
    const second = share("acct-a", reply(["a1", "a2"]));
    expect(second.filters?.assetId).toBe(first.filters?.assetId);
    expect(second.filters?.scannerId).toBe(first.filters?.scannerId);
    // The reply's own numbers are its own.
    expect(second.dailyMetric).not.toBe(first.dailyMetric);
    const renamed = reply(["a1", "a2"]);
    (renamed.filters?.assetId[1] as { displayValue: string }).displayValue = "Renamed";
    const third = share("acct-a", renamed);
    expect(third.filters?.assetId).not.toBe(first.filters?.assetId);
    expect(third.filters?.assetId.map((o) => o.displayValue)).toEqual(["A1", "Renamed"]);
    // Scanners unchanged: still the shared object.
    expect(third.filters?.scannerId).toBe(first.filters?.scannerId);
    // From now on the renamed list is the one shared.
    const renamedAgain = reply(["a1", "a2"]);
    (renamedAgain.filters?.assetId[1] as { displayValue: string }).displayValue = "Renamed";
    expect(share("acct-a", renamedAgain).filters?.assetId).toBe(third.filters?.assetId);
  });

  it("never shares between accounts, passes replies without lists through, and keeps a bounded number", () => {
    const share = createSharedLists(2);
    const a = share("acct-a", reply(["x"]));
    expect(share("acct-b", reply(["x"])).filters?.assetId).not.toBe(a.filters?.assetId);
    const bare = { ...reply([]), filters: undefined };
    expect(share("acct-a", bare)).toBe(bare);
    share("acct-c", reply(["x"]));
    // acct-a was the least recently used of three with room for two: its lists were let go.
    expect(share("acct-a", reply(["x"])).filters?.assetId).not.toBe(a.filters?.assetId);
  });

  it("gives an account's lists as fresh for the given time after a reply brought them, the same objects", () => {
    let now = 1_000;
    const share = createSharedLists(500, () => now);
    expect(share.fresh("acct-a", 300_000)).toBeUndefined();
    const first = share("acct-a", reply(["a1"]));
    now += 299_999;
    expect(share.fresh("acct-a", 300_000)?.assetId).toBe(first.filters?.assetId);
    expect(share.fresh("acct-b", 300_000)).toBeUndefined();
    now += 1;
    expect(share.fresh("acct-a", 300_000)).toBeUndefined();
    // A new reply with the lists makes them fresh again (still the same objects: equal content).
    share("acct-a", reply(["a1"]));
    expect(share.fresh("acct-a", 300_000)?.assetId).toBe(first.filters?.assetId);
  });
});
