import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { formatRangeLabel } from "../../src/insights/labels.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { type Harness, OWNER, REF, startHarness, until } from "./worker-harness.ts";

/**
 * Monthly subscriptions end to end on a real worker, real Redis and the Slack stand-in: created through
 * the subscription service (which writes the BullMQ job schedulers), fired by BullMQ, fanned out and
 * delivered. The schedulers are written with the clock at a fixed instant in February 2026, so their
 * pending fires are fixed instants in the past, which a worker runs at once (as after an outage).
 */

let h: Harness | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await h?.close();
  h = undefined;
});

/** Posted deliveries: [subscription id, period, channel, text]. */
const delivered = (harness: Harness) =>
  harness.slack
    .calls((c) => c.method === "chat.postMessage" && c.ok)
    .flatMap((c) => {
      const d = (c.args.metadata as { event_payload?: { delivery?: string } } | undefined)?.event_payload
        ?.delivery;
      const [id = "", period = ""] = d ? d.split("/") : [];
      return d ? [{ id, period, channel: String(c.args.channel), text: String(c.args.text) }] : [];
    });

describe("monthly schedules through the worker", () => {
  it("the last working day (a gated slot) and the 1st each fire, fan out and deliver their month in Berlin", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    for (const id of ["C0MONTH01", "C0MONTH02"])
      harness.slack.addChannel(DEMO.teamId, { id, name: id.toLowerCase() });
    const { subscriptions, queue } = harness.producer();
    // Friday 27 February 2026, noon UTC: February ends on a Saturday, so its last working day is today,
    // and its next 17:00 Berlin (16:00Z) is the run. BullMQ computes it from the clock.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-02-27T12:00:00Z"));
    const create = async (
      channelId: string,
      schedule: Subscription["schedule"],
      time: string,
      range: string,
    ) =>
      (await subscriptions.create(REF, { channelId, schedule, time, tz: "Europe/Berlin", range }, OWNER))
        .subscription;
    const last = await create(
      "C0MONTH01",
      { kind: "monthly", on: { kind: "workday", which: "last" } },
      "17:00",
      "thismonth",
    );
    const first = await create(
      "C0MONTH02",
      { kind: "monthly", on: { kind: "day", day: 1 } },
      "09:00",
      "lastmonth",
    );
    vi.useRealTimers();

    // The gated slot's scheduler fires on the 26th to the 31st and carries its gate for the fan-out.
    const gated = await queue.getJobScheduler(slotSchedulerId(slotOf(last)?.id ?? ""));
    expect(gated).toMatchObject({ pattern: "0 17 26-31 * *", tz: "Europe/Berlin" });
    expect(gated?.template?.data).toEqual({
      slot: slotOf(last)?.id,
      gate: "last-workday",
      tz: "Europe/Berlin",
      pattern: "0 17 26-31 * *",
    });
    expect(new Date(gated?.next ?? 0).toISOString()).toBe("2026-02-27T16:00:00.000Z");
    const plain = await queue.getJobScheduler(slotSchedulerId(slotOf(first)?.id ?? ""));
    expect(plain).toMatchObject({ pattern: "0 9 1 * *", tz: "Europe/Berlin" });
    expect(plain?.template?.data).toEqual({ slot: slotOf(first)?.id });
    expect(new Date(plain?.next ?? 0).toISOString()).toBe("2026-03-01T08:00:00.000Z");

    await harness.worker();
    await until(() => delivered(harness).length >= 2, 20_000, "two monthly digests");
    const got = delivered(harness);
    expect(got.map(({ id, period, channel }) => ({ id, period, channel }))).toEqual(
      expect.arrayContaining([
        { id: last.id, period: "20260227T160000Z", channel: "C0MONTH01" },
        { id: first.id, period: "20260301T080000Z", channel: "C0MONTH02" },
      ]),
    );
    // Each covers its month as of its run: February so far on the 27th; all of February on March 1st.
    const textOf = (id: string) => got.find((d) => d.id === id)?.text ?? "";
    expect(textOf(last.id)).toContain(formatRangeLabel("2026-02-01", "2026-02-27"));
    expect(textOf(first.id)).toContain(formatRangeLabel("2026-02-01", "2026-02-28"));
    // Recorded on the subscriptions, with their periods.
    const { store } = harness.producer();
    expect((await store.get(REF, last.id))?.lastDelivery).toMatchObject({
      outcome: "delivered",
      period: "20260227T160000Z",
    });
    expect(delivered(harness)).toHaveLength(2);
  });
});
