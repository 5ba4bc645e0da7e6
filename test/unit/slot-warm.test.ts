import { describe, expect, it } from "vitest";
import type { ScheduledDigest } from "../../src/digests/digest-service.ts";
import { createSlotWarmup } from "../../src/jobs/slot-warm.ts";
import { silentLogger } from "../../src/log.ts";
import { compactRef } from "../../src/subscriptions/ids.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { storedSubscription } from "../fixtures/subscription.ts";

/**
 * What a slot's warm-up hands the digest service: its active members with drivers, at the fire's
 * time. Run ahead of the fire, it leaves out a member whose day has not begun in its zone yet (the
 * service has no data for that day, and the digest asks for it at the fire).
 */

const REF = { teamId: "T0WARM" };
const FIRE = new Date("2026-11-28T00:00:00Z");

function warmup(subs: Subscription[], now: Date) {
  const handed: ScheduledDigest[][] = [];
  let done: () => void = () => undefined;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const warm = createSlotWarmup({
    store: { get: async (_ref, id) => subs.find((s) => s.id === id) ?? null },
    digests: {
      async warmDrivers(_ref, digests) {
        handed.push([...digests]);
        done();
      },
    },
    logger: silentLogger(),
    clock: () => now,
  });
  warm(
    REF,
    subs.map((s) => [s.id, s.channelId]),
    periodOf(FIRE),
  );
  return { handed, finished };
}

const sub = (id: string, o: Partial<Subscription> = {}) =>
  storedSubscription({
    id,
    ref: compactRef(REF),
    ownerId: "U0OWNER",
    channelId: "C0WARM",
    schedule: { kind: "daily" },
    ...o,
  });

describe("a slot's warm-up", () => {
  it("hands over the active members with drivers, at the fire's time", async () => {
    const subs = [
      sub("a"),
      sub("b", { drivers: false }),
      sub("c", { status: "paused" }),
      sub("d", { range: "last30d" }),
    ];
    const w = warmup(subs, FIRE);
    await w.finished;
    expect(w.handed).toHaveLength(1);
    expect(w.handed[0]?.map((d) => d.range)).toEqual(["last7d", "last30d"]);
    expect(w.handed[0]?.every((d) => d.now.getTime() === FIRE.getTime())).toBe(true);
  });

  it("ahead of the fire, leaves out the members whose day has not begun in their zone", async () => {
    // Ten seconds before midnight UTC: in UTC the fire's day is tomorrow; in Auckland (UTC+13) it is
    // already the fire's day, one p.m.
    const now = new Date(FIRE.getTime() - 10_000);
    const subs = [sub("utc", { tz: "UTC" }), sub("akl", { tz: "Pacific/Auckland", range: "last14d" })];
    const w = warmup(subs, now);
    await w.finished;
    expect(w.handed[0]?.map((d) => d.tz)).toEqual(["Pacific/Auckland"]);
  });
});
