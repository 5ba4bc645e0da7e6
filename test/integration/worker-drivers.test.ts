import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { capturingLogger } from "../../sandbox/stack.ts";
import { BLOCK } from "../../src/ids.ts";
import { compactRef, newSubscriptionId } from "../../src/subscriptions/ids.ts";
import { slotOf } from "../../src/subscriptions/slots.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { storedSubscription } from "../fixtures/subscription.ts";
import { type Harness, OWNER, REF, startHarness } from "./worker-harness.ts";

/** Scheduled digests carry the drivers section unless their subscription switched it off. */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const until = async (check: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("scheduled digests and their drivers", () => {
  it("post the drivers by default, none when the subscription turned them off, and the chart either way", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    harness.slack.setRateLimit({ enabled: false });
    const { subscriptions, store } = harness.producer();
    await harness.worker();
    const base = { schedule: { kind: "daily" as const }, tz: "UTC", range: "last30d" };
    const on = await subscriptions.create(REF, { ...base, channelId: DEMO.general }, OWNER);
    const off = await subscriptions.create(REF, { ...base, channelId: DEMO.security, drivers: false }, OWNER);
    expect(on.subscription.drivers).toBeUndefined();
    expect((await store.get(REF, off.subscription.id))?.drivers).toBe(false);
    await subscriptions.sendNow(REF, on.subscription.id);
    await subscriptions.sendNow(REF, off.subscription.id);
    const posted = (channel: string) => harness.slack.messages(channel)[0];
    await until(() => !!posted(DEMO.general) && !!posted(DEMO.security), 15_000, "both digests");
    const withDrivers = JSON.stringify(posted(DEMO.general)?.blocks);
    const without = JSON.stringify(posted(DEMO.security)?.blocks);
    expect(withDrivers).toContain(BLOCK.digestDrivers);
    expect(withDrivers).toContain("Why it changed");
    expect(without).not.toContain(BLOCK.digestDrivers);
    // No Why? on a scheduled digest: the drivers are in it, or its owner chose not to have them.
    expect(withDrivers).not.toContain("digest_why");
    expect(without).not.toContain("digest_why");
    // The chart either way: native (the default) draws it as a data_visualization block.
    for (const text of [withDrivers, without]) expect(text).toContain('"type":"data_visualization"');
    // The breakdown is a table when the digest has one; without drivers there is none.
    expect(withDrivers).toContain(BLOCK.digestDriversTable);
    expect(without).not.toContain(BLOCK.digestDriversTable);
    // Switched back on by an update: the record says so and the next digest has them again.
    const back = await subscriptions.update(REF, off.subscription.id, { drivers: true });
    expect(back.subscription.drivers).toBe(true);
    await subscriptions.sendNow(REF, off.subscription.id);
    await until(() => harness.slack.messages(DEMO.security).length >= 2, 15_000, "the second digest");
    expect(JSON.stringify(harness.slack.messages(DEMO.security)[1]?.blocks)).toContain(BLOCK.digestDrivers);
  });

  /**
   * `perWorkspace` subscriptions (ranges from `ranges`) in each of `workspaces` new workspaces that
   * share the demo account, due together a few seconds from now; resolves when all are posted, with
   * the emulator's requests and reply bytes by operation during the slot.
   */
  async function slot(
    harness: Harness,
    workspaces: number,
    ranges: string[],
    o: {
      leadMs?: number;
      beforeFire?: (at: Date) => Promise<void>;
      workers?: number;
      logLines?: string[];
    } = {},
  ) {
    harness.slack.setRateLimit({ enabled: false });
    const logSinks: (() => void)[] = [];
    const at = new Date(Date.now() + 5_000);
    const expression = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
    const { store, registry, scheduler } = harness.producer();
    const subs: Subscription[] = [];
    for (let w = 0; w < workspaces; w++) {
      const ws = await harness.addWorkspace(`T0PLAN${String(w).padStart(3, "0")}`, ranges.length);
      for (const [i, range] of ranges.entries())
        subs.push(
          storedSubscription({
            id: newSubscriptionId(),
            ref: compactRef(ws.ref),
            ownerId: OWNER,
            channelId: ws.channels[i] as string,
            schedule: { kind: "cron", expression },
            range,
          }),
        );
    }
    const s = slotOf(subs[0] as Subscription);
    if (!s) throw new Error("unreachable");
    for (const sub of subs) await registry.join(s.id, sub.ref);
    await scheduler.ensureSlot(s);
    for (const sub of subs) await store.insert(sub);
    // Introspection is per process and endpoint: counted apart. Read before the worker starts: its
    // lookahead warms the slot (due within its lead) as soon as it runs.
    const before = harness.emulator.byOperation();
    for (let i = 0; i < (o.workers ?? 1); i++) {
      const captured = capturingLogger("debug");
      await harness.worker({
        ...(o.leadMs === undefined ? {} : { config: { ...harness.config, slotWarmLeadMs: o.leadMs } }),
        ...(o.logLines ? { logger: captured.logger } : {}),
      });
      const lines = o.logLines;
      if (lines) logSinks.push(() => lines.push(...captured.lines.splice(0)));
    }
    const posts = () => harness.slack.calls((c) => c.method === "chat.postMessage" && c.ok);
    await o.beforeFire?.(at);
    for (const sink of logSinks.splice(0)) sink();
    await until(() => posts().length >= subs.length, 30_000, `${subs.length} digests`);
    const after = harness.emulator.byOperation();
    const delta = (op: string) => ({
      requests: (after[op]?.requests ?? 0) - (before[op]?.requests ?? 0),
      bytes: (after[op]?.bytes ?? 0) - (before[op]?.bytes ?? 0),
    });
    for (const p of posts()) expect(JSON.stringify(p.args.blocks)).toContain(BLOCK.digestDrivers);
    return { digests: subs.length, insights: delta("Insights"), slices: delta("DriverSlices") };
  }

  it("a slot's digests of one account, each with its own range, get their drivers from one planned fetch", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const ranges = ["last7d", "last8d", "last9d", "last10d", "last12d", "last14d"];
    const r = await slot(h, 2, ranges);
    // Every digest its own reply (two workspaces, six ranges); the drivers of all twelve from one
    // request of the days the longest needs (and, for slices silent since before their previous
    // period, one more for the longer history).
    expect(r.insights.requests).toBe(12);
    expect(r.slices.requests).toBeGreaterThanOrEqual(1);
    expect(r.slices.requests).toBeLessThanOrEqual(2);
  });

  it("ten digests of one account and range cost at most 1.5× the analytics requests of the digests alone", async () => {
    // What one digest's drivers fetch costs on its own, in a harness of its own (nothing cached).
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const lone = await slot(h, 1, ["last7d"]);
    await h.close();
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const r = await slot(h, 10, ["last7d"]);
    // Without drivers: one request per digest (each workspace asks its own). With them: one more
    // request for all ten (or two, with the longer history).
    expect(r.insights.requests).toBe(10);
    expect((r.insights.requests + r.slices.requests) / r.insights.requests).toBeLessThanOrEqual(1.5);
    // Bytes received for the drivers: what one digest alone receives, once for all ten (ten digests
    // each fetching their own would receive ten times that; the bound leaves room for a second
    // fetch, as the request bound above does). Not compared with the digests' own replies: how lean
    // those are depends on whether the account's lists were already held when each was asked.
    expect(lone.slices.bytes).toBeGreaterThan(0);
    expect(r.slices.bytes).toBeGreaterThan(0);
    expect(r.slices.bytes).toBeLessThanOrEqual(2 * lone.slices.bytes);
  });

  it.each([
    ["one node", "redisUrl"],
    ["a cluster", "redisClusterUrl"],
  ] as const)(
    "on %s, a slot due within the lead has its drivers computed before it fires, once",
    async (_on, url) => {
      h = await startHarness({ redisUrl: inject(url) });
      const harness = h;
      const slices = () => harness.emulator.byOperation().DriverSlices?.requests ?? 0;
      const posted = () => harness.slack.calls((c) => c.method === "chat.postMessage").length;
      let early = 0;
      const r = await slot(harness, 3, ["last7d", "last30d"], {
        // Fired 5 s from now; the default lead is 15 s.
        beforeFire: async (at) => {
          await until(() => slices() > 0, 4_000, "the slices asked ahead of the fire");
          expect(Date.now()).toBeLessThan(at.getTime());
          expect(posted()).toBe(0);
          early = slices();
        },
      });
      expect(early).toBeGreaterThan(0);
      // Computed ahead and found by the fire's deliveries: nothing asked twice (one fetch of the days
      // both ranges need, and one for the longer history at most), every digest with its drivers.
      expect(r.slices.requests).toBeLessThanOrEqual(2);
      expect(r.insights.requests).toBe(6);
    },
  );

  it("with two workers, one of them walks a slot ahead of its fire", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    const lines: string[] = [];
    const r = await slot(harness, 2, ["last7d", "last14d"], {
      workers: 2,
      logLines: lines,
      // Both workers tick within the lead before the fire: one takes the fire's claim and walks.
      beforeFire: async (at) => {
        await until(() => (harness.emulator.byOperation().DriverSlices?.requests ?? 0) > 0, 4_000, "slices");
        await new Promise((res) =>
          setTimeout(res, Math.max(0, Math.min(2_000, at.getTime() - Date.now() - 500))),
        );
      },
    });
    const walked = lines.filter((l) => l.includes("slots warmed ahead of their fire"));
    expect(walked).toHaveLength(1);
    expect(r.slices.requests).toBeLessThanOrEqual(2);
  });

  it("with the lead at 0, a slot's drivers wait for its fire", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    let early = -1;
    await slot(harness, 1, ["last7d"], {
      leadMs: 0,
      beforeFire: async (at) => {
        // Two lookahead ticks' worth, still well before the fire.
        await new Promise((res) => setTimeout(res, 2_500));
        expect(Date.now()).toBeLessThan(at.getTime());
        early = harness.emulator.byOperation().DriverSlices?.requests ?? 0;
      },
    });
    expect(early).toBe(0);
  });

  it("a lone scheduled digest with drivers makes at most three analytics requests", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const r = await slot(h, 1, ["last7d"]);
    expect(r.insights.requests).toBe(1);
    expect(r.insights.requests + r.slices.requests).toBeLessThanOrEqual(3);
    // The drivers' days and fields only: a scheduled digest asks its 19 slices for 28 days first (its
    // two periods of 7 and the two weeks before them; the rule's baseline after, only for the slices
    // whose silences need it), daily lists only, under short aliases (a year-long window per slice
    // was 365 KiB).
    expect(r.slices.bytes).toBeLessThan(100_000);
  });
});
