import { afterEach, describe, expect, it, vi } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { fanOut } from "../../src/jobs/fanout.ts";
import { DEFAULT_POLICY } from "../../src/jobs/queue.ts";
import { silentLogger } from "../../src/log.ts";
import { compactRef, newSubscriptionId } from "../../src/subscriptions/ids.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { storedSubscription } from "../fixtures/subscription.ts";
import { backends } from "../setup/backends.ts";
import { type Harness, OWNER, REF, startHarness, until } from "./worker-harness.ts";

let h: Harness | undefined;

/** Runs `fn` over `items` with `n` in flight. */
async function inParallel<T>(items: T[], n: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: n }, lane));
}
afterEach(async () => {
  vi.useRealTimers();
  await h?.close();
  h = undefined;
});

/** Posted deliveries in post order: [subscription id, period]. */
const delivered = (harness: Harness) =>
  harness.slack
    .calls((c) => c.method === "chat.postMessage" && c.ok)
    .flatMap((c) => {
      const d = (c.args.metadata as { event_payload?: { delivery?: string } } | undefined)?.event_payload
        ?.delivery;
      return d ? [d.split("/") as [string, string]] : [];
    });

describe.each(backends())("time slots ($name)", ({ url }) => {
  it("slots in three zones fire at their zone's wall time, across Berlin's change to summer time, and fan out to every member", async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    const channels = ["C0SLOTBE1", "C0SLOTBE2", "C0SLOTNY1", "C0SLOTIN1"];
    for (const id of channels) harness.slack.addChannel(DEMO.teamId, { id, name: id.toLowerCase() });
    const { subscriptions, queue } = harness.producer();
    const daily = (channelId: string, tz: string) => ({
      channelId,
      schedule: { kind: "daily" as const },
      time: "09:00",
      tz,
    });
    // The schedulers are made on 28 March 2026, noon UTC: Berlin's next 09:00 is on the 29th, the
    // first day of summer time (07:00 UTC, not 08:00). BullMQ computes it from the clock, so the
    // clock is set for the writes only.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-28T12:00:00Z"));
    const be1 = (await subscriptions.create(REF, daily("C0SLOTBE1", "Europe/Berlin"), OWNER)).subscription;
    const be2 = (await subscriptions.create(REF, daily("C0SLOTBE2", "Europe/Berlin"), OWNER)).subscription;
    const ny = (await subscriptions.create(REF, daily("C0SLOTNY1", "America/New_York"), OWNER)).subscription;
    const india = (await subscriptions.create(REF, daily("C0SLOTIN1", "Asia/Kolkata"), OWNER)).subscription;
    vi.useRealTimers();
    const next = async (sub: Subscription) =>
      (await queue.getJobScheduler(slotSchedulerId(slotOf(sub)?.id ?? "")))?.next;
    expect(new Date((await next(be1)) ?? 0).toISOString()).toBe("2026-03-29T07:00:00.000Z");
    expect(await next(be2)).toBe(await next(be1));
    expect(new Date((await next(ny)) ?? 0).toISOString()).toBe("2026-03-28T13:00:00.000Z");
    expect(new Date((await next(india)) ?? 0).toISOString()).toBe("2026-03-29T03:30:00.000Z");
    expect(await queue.getJobSchedulersCount()).toBe(3);

    // Those runs are in the past now: a worker fires them at once, as after any outage.
    await harness.worker();
    await until(() => delivered(harness).length >= 4, 15_000, "four digests");
    const got = Object.fromEntries(delivered(harness).map(([id, period]) => [id, period]));
    expect(got).toEqual({
      [be1.id]: "20260329T070000Z",
      [be2.id]: "20260329T070000Z",
      [ny.id]: "20260328T130000Z",
      [india.id]: "20260329T033000Z",
    });
    // Each digest covers its zone's week up to the run (as of the fire time, not of now).
    const text = harness.slack.messages("C0SLOTBE1")[0]?.text ?? "";
    expect(text).toMatch(/Mar 2[1-9]/);
    expect(delivered(harness)).toHaveLength(4);
  });
});

describe("fairness", () => {
  it("5,000 subscriptions of one workspace and 5 of another in one slot: the 5 go out among the first deliveries", {
    // Creating and firing 5,000 schedules is most of its time; on a machine shared with other work
    // (CI runs the partition tests beside it) that alone can pass 30 s. What it checks is order.
    timeout: 120_000,
  }, async () => {
    h = await startHarness({ redisUrl: backends()[0]?.url ?? "" });
    const harness = h;
    const big = await harness.addWorkspace("T0BIGWS01", 100);
    const { store, registry, scheduler, subscriptions } = harness.producer();
    // Fires once, seconds from now (UTC wall time), so the records are all in before it does: writing
    // 5,005 records took over 6 s on a loaded 2-core machine, so the margin is wide (it is idle time).
    const at = new Date(Date.now() + 15_000);
    const expression = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
    const make = (ref: typeof REF, channelId: string): Subscription =>
      storedSubscription({
        id: newSubscriptionId(),
        ref: compactRef(ref),
        ownerId: OWNER,
        channelId,
        schedule: { kind: "cron", expression },
      });
    const many = Array.from({ length: 5_000 }, (_, i) => make(big.ref, big.channels[i % 100] as string));
    // Written as create() writes them, minus its per-workspace cap and its preview.
    const slot = slotOf(many[0] as Subscription);
    if (!slot) throw new Error("unreachable");
    await registry.join(slot.id, big.ref);
    await scheduler.ensureSlot(slot);
    await inParallel(many, 32, (s) => store.insert(s));
    const few: Subscription[] = [];
    // A channel each: Slack's one post a second per channel is the small workspace's own limit.
    const small = ["C0FEW0001", "C0FEW0002", "C0FEW0003", "C0FEW0004", "C0FEW0005"];
    for (const id of small) harness.slack.addChannel(DEMO.teamId, { id, name: id.toLowerCase() });
    for (const c of small)
      few.push(
        (
          await subscriptions.create(
            REF,
            { channelId: c, schedule: { kind: "cron", expression }, tz: "UTC" },
            OWNER,
          )
        ).subscription,
      );
    expect(Date.now()).toBeLessThan(at.getTime());
    const w = await harness.worker();
    await until(
      () => few.every((s) => delivered(harness).some(([id]) => id === s.id)),
      30_000,
      "the small workspace's digests",
    );
    await w.close();
    const order = delivered(harness).map(([id]) => id);
    const positions = few.map((s) => order.indexOf(s.id));
    console.info(
      `[fairness] positions of the small workspace's 5 digests among ${order.length} posted: ${positions.join(", ")}`,
    );
    // The fan-out deals each workspace a run of 10 per round: the small workspace's 5 are in the first
    // round, beside the big one's first 10 (15 jobs), and four deliveries run at once.
    expect(Math.max(...positions)).toBeLessThan(20);
  });

  it("700 and 650 subscriptions of two workspaces, paged unevenly by Redis: every run of ten is taken whole, the small workspaces' first", async () => {
    h = await startHarness({ redisUrl: backends()[0]?.url ?? "" });
    const { store, registry, queue } = h.producer();
    // Past Redis's compact hash (512 entries by default) a slot's members come back in pages of about
    // 100, not exactly 100, so runs of ten are cut by the pages' ends; two such workspaces have runs of
    // the same round to come between the halves of a cut one.
    const sizes = { T0BIGWS01: 700, T0BIGWS02: 650, T0MIDWS01: 15, T0FEWWS01: 3 };
    const expression = "0 0 9 * * *";
    const byTeam = new Map<string, string[]>();
    let slotId = "";
    for (const [teamId, n] of Object.entries(sizes)) {
      const ref = compactRef({ teamId });
      const subs = Array.from({ length: n }, () =>
        storedSubscription({
          id: newSubscriptionId(),
          ref,
          ownerId: OWNER,
          channelId: "C0ONE0001",
          schedule: { kind: "cron", expression },
        }),
      );
      const slot = slotOf(subs[0] as Subscription);
      if (!slot) throw new Error("unreachable");
      slotId = slot.id;
      await registry.join(slot.id, ref);
      await inParallel(subs, 32, (sub) => store.insert(sub));
      byTeam.set(teamId, []);
    }
    const fire = Date.UTC(2026, 10, 30, 9, 0, 0);
    const job = { id: "slot-test", data: { slot: slotId }, opts: { prevMillis: fire } };
    const result = await fanOut(
      { store, registry, queue, policy: DEFAULT_POLICY, logger: silentLogger() },
      job as unknown as Parameters<typeof fanOut>[1],
    );
    expect(result).toMatchObject({ status: "fanned_out", jobs: 1368 });
    // As a worker would take them: by priority, then in the order they were added.
    const taken = await queue.getJobs(["prioritized"], 0, -1, true);
    expect(taken).toHaveLength(1368);
    const teamOf = (sub: string) => sub.split(".")[1] as string;
    for (const [i, j] of taken.entries())
      byTeam.get(teamOf(j.data.sub ?? ""))?.push(`${i}:${j.opts.priority}`);
    // Every workspace's first member comes first (4 jobs), then the rest of every first run (9 + 9 + 9 + 2):
    // the workspace of 3 is whole in the first round, and the one of 15 has its first ten there.
    const places = (team: string) => (byTeam.get(team) ?? []).map((at) => Number(at.split(":")[0]));
    for (const team of Object.keys(sizes)) expect(places(team)[0]).toBeLessThan(4);
    expect(Math.max(...places("T0FEWWS01"))).toBeLessThan(33);
    expect(Math.max(...places("T0MIDWS01").slice(0, 10))).toBeLessThan(33);
    // Each workspace's runs (its first member, the other nine of its first run, then runs of ten):
    // neighbouring places, one priority each.
    for (const [team, places] of byTeam) {
      const starts = [0, 1];
      for (let r = 10; r < places.length; r += 10) starts.push(r);
      for (const [run, start] of starts.entries()) {
        const chunk = places
          .slice(start, starts[run + 1] ?? places.length)
          .map((p) => p.split(":").map(Number) as [number, number]);
        const first = chunk[0] as [number, number];
        const last = chunk[chunk.length - 1] as [number, number];
        expect({
          team,
          run,
          spread: last[0] - first[0],
          priorities: [...new Set(chunk.map((c) => c[1]))],
        }).toEqual({
          team,
          run,
          spread: chunk.length - 1,
          priorities: [run + 1],
        });
      }
    }
  });
});
