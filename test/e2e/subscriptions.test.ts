import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { nextRuns } from "../../src/subscriptions/schedule.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { runTime } from "../../templates/subscribe-times.ts";
import { command } from "./helpers.ts";
import { idIn, REF, schedulerOf, sub, subscriptionStack, textOf } from "./subscriptions-helpers.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await subscriptionStack(inject("redisUrl"), `e2e-subs-${process.pid}`);
});
afterAll(async () => stack?.close());

/** The run lines of a confirmation ("• Mon 2 Nov 2026, 08:30 EST"). */
function runLines(body: unknown): string[] {
  const blocks = (body as { blocks?: { text?: { text?: string } }[] }).blocks ?? [];
  return blocks
    .flatMap((b) => (b.text?.text ?? "").split("\n"))
    .filter((l) => l.startsWith("• "))
    .map((l) => l.slice(2));
}

describe("subscribe", () => {
  it("a member is refused and nothing is stored", async () => {
    const before = (await stack.web.deps.subscriptions.list(REF)).length;
    const { body } = await command(stack, "subscribe weekly mon 09:00", DEMO.member);
    expect(textOf(body)).toContain("Only workspace admins");
    expect((await stack.web.deps.subscriptions.list(REF)).length).toBe(before);
  });

  it("in a channel the app is not in, the reply says how to invite it; an archived one says so", async () => {
    const { body } = await command(stack, "subscribe daily 08:00", DEMO.admin, DEMO.noBot);
    expect(textOf(body)).toContain("/invite @Insights");
    const archived = await command(stack, "subscribe daily 08:00", DEMO.admin, DEMO.archived);
    expect(textOf(archived.body)).toContain("archived");
    expect(await stack.web.deps.subscriptions.listByChannel(REF, DEMO.noBot)).toEqual([]);
    expect(await stack.web.deps.subscriptions.listByChannel(REF, DEMO.archived)).toEqual([]);
  });

  it("creates one: schedule, the next five runs in its zone, id and owner; one scheduler with pattern and zone", async () => {
    const { body } = await command(
      stack,
      'subscribe weekly mon thu 08:30 America/New_York last30d asset:"payments / api"',
      DEMO.admin,
    );
    expect(checkMessage(body)).toEqual([]);
    const text = textOf(body);
    expect(text).toContain("Weekly on Mon, Thu at 08:30");
    expect(text).toContain("America/New_York");
    expect(text).toContain("payments / api");
    expect(text).toContain(`set up by <@${DEMO.admin}>`);
    const runs = runLines(body);
    expect(runs).toHaveLength(5);
    for (const r of runs) expect(r).toMatch(/^(Mon|Thu) \d{1,2} \w{3} \d{4}, 08:30 E[SD]T$/);
    const id = idIn(body);
    // The same five instants the scheduler will fire at, computed independently from the record.
    const { schedule, time, tz, createdAt } = (await sub(stack, id)) as Subscription;
    const expected = nextRuns(schedule, time, tz, new Date(createdAt), 5).map((d) => runTime(d, tz));
    expect(runs).toEqual(expected);
    const saved = await sub(stack, id);
    expect(saved).toMatchObject({
      channelId: DEMO.general,
      ownerId: DEMO.admin,
      tz: "America/New_York",
      range: "last30d",
    });
    expect(saved?.assetIds).toHaveLength(1);
    expect(saved?.filterLabels).toEqual(["payments / api"]);
    const scheduler = await schedulerOf(stack, id);
    expect(scheduler).toMatchObject({ pattern: "30 8 * * 1,4", tz: "America/New_York" });
  });
});

describe("manage by id", () => {
  let id = "";

  beforeAll(async () => {
    const { body } = await command(stack, "subscribe weekly", DEMO.admin, DEMO.security);
    id = idIn(body);
  });

  it("the short form takes the defaults and the caller's zone; several subscriptions share a channel", async () => {
    const saved = await sub(stack, id);
    expect(saved).toMatchObject({
      schedule: { kind: "weekly", days: ["mon"] },
      time: "09:00",
      tz: "Europe/Berlin",
      range: "last7d",
      channelId: DEMO.security,
    });
    const again = await command(stack, "subscribe daily 07:15", DEMO.admin, DEMO.security);
    expect(textOf(again.body)).toContain("Daily at 07:15");
    expect(
      (await stack.web.deps.subscriptions.listByChannel(REF, DEMO.security)).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it("nodrivers leaves the drivers section out of that subscription only", async () => {
    const off = await command(stack, "subscribe daily 06:30 nodrivers", DEMO.admin, DEMO.security);
    expect((await sub(stack, idIn(off.body)))?.drivers).toBe(false);
    const on = await command(stack, "subscribe daily 06:45", DEMO.admin, DEMO.security);
    expect((await sub(stack, idIn(on.body)))?.drivers).toBeUndefined();
  });

  it("subscriptions lists this channel's first, with owners; members get no buttons", async () => {
    const { body } = await command(stack, "subscriptions", DEMO.admin, DEMO.security);
    expect(checkMessage(body)).toEqual([]);
    const text = textOf(body);
    expect(text).toContain(`set up by <@${DEMO.admin}>`);
    expect(text.indexOf(`<#${DEMO.security}>`)).toBeLessThan(text.indexOf(`<#${DEMO.general}>`));
    expect(text).toContain("sub_pause");
    const member = await command(stack, "subscriptions", DEMO.member, DEMO.security);
    expect(textOf(member.body)).toContain("Weekly on Mon at 09:00");
    expect(textOf(member.body)).not.toContain("sub_pause");
  });

  it("a member cannot pause, resume, send or unsubscribe; an unknown id is named", async () => {
    for (const verb of ["pause", "resume", "send", "unsubscribe"]) {
      const { body } = await command(stack, `${verb} ${id}`, DEMO.member);
      expect(textOf(body)).toContain("Only the owner");
    }
    expect((await sub(stack, id))?.status).toBe("active");
    const { body } = await command(stack, "pause zzzz9999", DEMO.admin);
    expect(textOf(body)).toContain('There is no subscription \\"zzzz9999\\"');
  });

  it("pause removes the scheduler; resume brings it back and says whether a catch-up was queued", async () => {
    const paused = await command(stack, `pause ${id}`, DEMO.admin);
    expect(textOf(paused.body)).toContain("Paused");
    expect((await sub(stack, id))?.status).toBe("paused");
    expect(await schedulerOf(stack, id)).toBeUndefined();
    const resumed = await command(stack, `resume ${id}`, DEMO.admin);
    expect(textOf(resumed.body)).toContain("Resumed");
    expect(textOf(resumed.body)).toContain("No run was missed");
    expect(runLines(resumed.body)).toHaveLength(5);
    expect((await sub(stack, id))?.status).toBe("active");
    expect(await schedulerOf(stack, id)).toMatchObject({ pattern: "0 9 * * 1", tz: "Europe/Berlin" });
  });

  it("send delivers a digest to the channel now and records it", async () => {
    const before = stack.slack.messages(DEMO.security).length;
    const { body } = await command(stack, `send ${id}`, DEMO.admin);
    expect(textOf(body)).toContain("on its way");
    // The worker renders, uploads and waits for Slack to process the chart before it posts.
    const posted = await stack.slack.waitFor(() => stack.slack.messages(DEMO.security)[before], {
      timeoutMs: 20_000,
    });
    expect(posted.user).toBe(DEMO.botUserId);
    expect(posted.text).toMatch(/findings/);
    const saved = await stack.slack.waitFor(async () => {
      const s = await sub(stack, id);
      return s?.lastDelivery?.outcome === "delivered" ? s : undefined;
    });
    expect(saved.lastDelivery?.messageTs).toBe(posted.ts);
    // status answers "did it go out?" without opening App Home.
    const status = await command(stack, "status", DEMO.member);
    expect(textOf(status.body)).toContain(`\`${id}\``);
    expect(textOf(status.body)).toMatch(/last delivered \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  });

  it("unsubscribe deletes the record and its scheduler", async () => {
    const { body } = await command(stack, `unsubscribe ${id}`, DEMO.admin);
    expect(textOf(body)).toContain("Deleted");
    expect(await sub(stack, id)).toBeNull();
    expect(await schedulerOf(stack, id)).toBeUndefined();
    const again = await command(stack, `resume ${id}`, DEMO.admin);
    expect(textOf(again.body)).toContain("There is no subscription");
  });
});

describe("bad input", () => {
  it.each([
    ['subscribe weekly asset:"no such asset"', "No asset is called"],
    ["subscribe daily 09:00 Mars/Phobos", "Mars/Phobos"],
    ["subscribe daily mon", "daily subscription runs every day"],
    ["subscribe weekly 25:00", "can't read"],
    ["pause", "pause &lt;id&gt;"],
  ])("%s gets a reply that says what to change", async (text, expected) => {
    const { body } = await command(stack, text, DEMO.admin);
    expect(textOf(body)).toContain(expected);
    expect(checkMessage(body)).toEqual([]);
  });
});
