import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { BLOCK } from "../../src/ids.ts";
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
    for (const text of [withDrivers, without]) expect(text).toContain('"type":"image"');
    // Switched back on by an update: the record says so and the next digest has them again.
    const back = await subscriptions.update(REF, off.subscription.id, { drivers: true });
    expect(back.subscription.drivers).toBe(true);
    await subscriptions.sendNow(REF, off.subscription.id);
    await until(() => harness.slack.messages(DEMO.security).length >= 2, 15_000, "the second digest");
    expect(JSON.stringify(harness.slack.messages(DEMO.security)[1]?.blocks)).toContain(BLOCK.digestDrivers);
  });
});
