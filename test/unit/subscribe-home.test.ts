import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkMessage, checkView } from "../../src/blockkit/limits.ts";
import { ACTION } from "../../src/ids.ts";
import { subscriptionView } from "../../src/slack/home.ts";
import { canChangeSubscription, requireChange } from "../../src/slack/subscriptions/access.ts";
import { channelFirst, pageOffsetOf } from "../../src/slack/subscriptions/list.ts";
import type { SlackUser } from "../../src/slack/users.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { appHome, HOME_MAX_ROWS, type HomeModel, type HomeSubscription } from "../../templates/app-home.ts";
import { subscribedMessage } from "../../templates/subscribe-reply.ts";
import { hostileRowFields, hostile as hostileText } from "./fixtures/hostile.ts";
import { mrkdwnIn } from "./fixtures/mrkdwn.ts";

const hostile = (max: number) => hostileText(max, 30);

/** Every mrkdwn text in a payload. */
const texts = (value: unknown): string => mrkdwnIn(value).join("\n");

/** Our own tokens removed, no `<` or `>` may remain: user data cannot mention, link or shout. */
function expectNoRawControls(text: string): void {
  const ours = /<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>]*>|<#[CG][A-Z0-9]+>|<@[UW][A-Z0-9]+>/g;
  expect(text.replace(ours, "")).not.toMatch(/[<>]/);
}

const buttons = (v: unknown) =>
  (JSON.stringify(v).match(/"action_id":"[a-z_]+"/g) ?? []).map((s) => s.slice(13, -1));

function row(over: Partial<HomeSubscription> = {}): HomeSubscription {
  return {
    id: "abc12345",
    channelId: "C0GENERAL",
    ownerId: "U0ADMIN01",
    schedule: "Weekly on Mon at 09:00",
    tz: "Europe/Berlin",
    range: "last7d",
    filterNames: [],
    paused: false,
    nextRunAt: "2026-11-23T08:00:00Z",
    canChange: true,
    ...over,
  };
}

const connected: HomeModel["key"] = {
  connected: true,
  savedBy: "U0ADMIN01",
  savedAt: "2026-11-01T10:00:00Z",
};

describe("appHome", () => {
  it("admins get Connect and New subscription; rows they may change get all four buttons", () => {
    const home = appHome({ key: { connected: false }, canManage: true, subscriptions: [row()] });
    expect(checkView(home)).toEqual([]);
    expect(buttons(home)).toEqual([
      ACTION.connect,
      ACTION.subscriptionNew,
      ACTION.subscriptionPause,
      ACTION.subscriptionSend,
      ACTION.subscriptionEdit,
      ACTION.subscriptionDelete,
    ]);
    expect(texts(home)).toContain("not connected");
  });

  it("members see every row and no button; a paused row says why and how to fix it", () => {
    const home = appHome({
      key: connected,
      canManage: false,
      subscriptions: [
        row({
          canChange: false,
          paused: true,
          pausedReason: "the channel was archived",
          pausedFix: "Unarchive it.",
        }),
      ],
    });
    expect(buttons(home)).toEqual([]);
    expect(texts(home)).toContain("*Paused* because the channel was archived.");
    expect(texts(home)).toContain("_To fix:_ Unarchive it.");
    expect(texts(home)).not.toContain("Next run");
  });

  it("the owner of one row gets buttons on that row only", () => {
    const home = appHome({
      key: connected,
      canManage: false,
      subscriptions: [row({ id: "mine0001" }), row({ id: "other001", canChange: false })],
    });
    const json = JSON.stringify(home);
    expect(json).toContain('"value":"mine0001"');
    expect(json).not.toContain('"value":"other001"');
  });

  it.each([0, 1, HOME_MAX_ROWS, HOME_MAX_ROWS + 1, 200])(
    "%i subscriptions fit in 100 blocks, with 'and N more' past the last row",
    (n) => {
      const subs = Array.from({ length: n }, (_, i) => row({ id: `sub${String(i).padStart(5, "0")}` }));
      const home = appHome({
        key: connected,
        canManage: true,
        notice: ":white_check_mark: Saved.",
        subscriptions: subs,
      });
      expect(checkView(home)).toEqual([]);
      expect(home.blocks.length).toBeLessThanOrEqual(100);
      if (n > HOME_MAX_ROWS) expect(texts(home)).toContain(`and ${n - HOME_MAX_ROWS} more`);
      else expect(texts(home)).not.toContain("more.");
    },
  );

  it("hostile names, zones, reasons and ids stay within the limits and cannot mention anyone", () => {
    const arb = fc.record({
      ...hostileRowFields({
        pieces: 30,
        idMax: 60,
        channelId: "C0GENERAL",
        ownerId: "U0ADMIN01",
        filtersMax: 30,
        reasonMax: 400,
        deliveredAt: fc.oneof(fc.constant("2026-11-16T08:00:00Z"), hostile(40)),
      }),
      pausedFix: fc.option(hostile(400), { nil: undefined }),
      canChange: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 40 }), fc.boolean(), (subs, manage) => {
        const home = appHome({ key: connected, canManage: manage, subscriptions: subs });
        expect(checkView(home)).toEqual([]);
        expectNoRawControls(texts(home));
      }),
      { numRuns: 60 },
    );
  });
});

describe("subscriptionView", () => {
  const base: Subscription = {
    id: "abc12345",
    ref: { teamId: "T1" },
    channelId: "C0GENERAL",
    ownerId: "U0ADMIN01",
    schedule: { kind: "weekly", days: ["mon", "thu"] },
    time: "09:00",
    tz: "Europe/Berlin",
    range: "last7d",
    assetIds: ["a1"],
    scannerIds: [],
    filterLabels: ["payments / api"],
    status: "paused",
    pausedReason: "is_archived",
    createdAt: "2026-11-01T00:00:00Z",
    lastDelivery: {
      period: "20261102T080000Z",
      at: "2026-11-02T08:00:01Z",
      outcome: "failed",
      reason: "is_archived",
    },
  };

  it("puts codes into words: the schedule, why it paused and how to fix it, why the last delivery failed", () => {
    const v = subscriptionView(base);
    expect(v.schedule).toBe("Weekly on Mon, Thu at 09:00");
    expect(v.pausedReason).toBe(
      "The channel is archived. Unarchive the channel, then resume the subscription.",
    );
    expect(v.lastDelivery).toEqual({
      at: base.lastDelivery?.at,
      outcome: "failed",
      reason: "the channel is archived",
    });
    expect(v.filterNames).toEqual(["payments / api"]);
  });

  it("says monthly, quarterly and working-day schedules in words on the Home tab and in the list", () => {
    const words = (schedule: Subscription["schedule"], time = "09:00") =>
      subscriptionView({ ...base, schedule, time }).schedule;
    expect(words({ kind: "monthly", on: { kind: "day", day: 1 } })).toBe("Monthly on the 1st at 09:00");
    expect(words({ kind: "monthly", on: { kind: "day", day: 30 } })).toBe(
      "Monthly on the 30th (or the last day of a shorter month) at 09:00",
    );
    expect(words({ kind: "monthly", on: { kind: "weekday", nth: 1, weekday: "mon" } })).toBe(
      "Monthly on the first Monday at 09:00",
    );
    expect(words({ kind: "monthly", on: { kind: "workday", which: "last" } }, "17:00")).toBe(
      "Monthly on the last working day (Mon–Fri) at 17:00",
    );
    expect(words({ kind: "quarterly", on: { kind: "day", day: 1 } })).toBe(
      "Quarterly on the 1st of Jan, Apr, Jul, Oct at 09:00",
    );
    expect(words({ kind: "weekdays" }, "08:00")).toBe("Weekdays (Mon–Fri) at 08:00");
  });

  it("shows its own chart style and, on the Home tab, a chart that went as an image", () => {
    const fallback = {
      ...base,
      status: "active" as const,
      chart: "png" as const,
      lastDelivery: {
        period: "p",
        at: "2026-11-02T08:00:01Z",
        outcome: "delivered" as const,
        chart: "png_fallback",
      },
    };
    const v = subscriptionView(fallback);
    expect(v.chart).toBe("png");
    const home = JSON.stringify(
      appHome({ key: { connected: false }, canManage: true, subscriptions: [{ ...v, canChange: true }] })
        .blocks,
    );
    expect(home).toContain(" · chart: png · ");
    expect(home).toContain("the chart went as an image (Slack refused the chart or table block)");
    expect(subscriptionView(base).chart).toBeUndefined();
  });

  it("an active subscription carries its next run and no reason", () => {
    const next = new Date("2026-11-05T08:00:00Z");
    const v = subscriptionView({ ...base, status: "active", pausedReason: undefined }, next);
    expect(v.paused).toBe(false);
    expect(v.pausedReason).toBeUndefined();
    expect(v.nextRunAt).toBe(next.toISOString());
  });
});

describe("subscribedMessage", () => {
  it("says what was saved, the next runs in the subscription's zone, its id and owner", () => {
    const m = subscribedMessage({
      id: "abc12345",
      channelId: "C0GENERAL",
      ownerId: "U0ADMIN01",
      schedule: { kind: "cron", expression: "0 9 * * 1-5" },
      time: "09:00",
      tz: "America/New_York",
      range: "last7d",
      filterLabels: [],
      nextRuns: [new Date("2026-03-06T14:00:00Z"), new Date("2026-03-09T13:00:00Z")],
      verb: "subscribed",
    });
    expect(checkMessage(m)).toEqual([]);
    const t = texts(m);
    expect(t).toContain("Cron `0 9 * * 1-5`");
    // The DST change on 8 March shows in the zone names, at the same wall-clock time.
    expect(t).toContain("• Fri 6 Mar 2026, 09:00 EST\n• Mon 9 Mar 2026, 09:00 EDT");
    expect(t).toContain("Id `abc12345`");
    expect(t).toContain("set up by <@U0ADMIN01>");
  });

  it("hostile filter names and ranges cannot break out of their text", () => {
    fc.assert(
      fc.property(
        fc.array(hostile(300), { maxLength: 40 }),
        hostile(100),
        hostile(80),
        (labels, range, tz) => {
          const m = subscribedMessage({
            id: "abc12345",
            channelId: "C0GENERAL",
            ownerId: "U0ADMIN01",
            schedule: { kind: "daily" },
            time: "09:00",
            tz,
            range,
            filterLabels: labels,
            nextRuns: [new Date("2026-03-06T14:00:00Z")],
            verb: "resumed",
            note: "One catch-up digest is on its way.",
          });
          expect(checkMessage(m)).toEqual([]);
          expectNoRawControls(texts(m));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("who may change a subscription, and list order", () => {
  const policy = { adminUserIds: ["U0ALLOWED"], digestAccess: "everyone" as const };
  const user = (over: Partial<SlackUser> = {}): SlackUser => ({
    id: "U0MEMBER1",
    name: "m",
    tz: "UTC",
    isAdmin: false,
    isOwner: false,
    isRestricted: false,
    deleted: false,
    ...over,
  });

  it("managers change any subscription, owners their own, nobody else; deleted users nothing", () => {
    const sub = { id: "abc12345", ownerId: "U0OWNERX1" };
    expect(canChangeSubscription(user({ isAdmin: true }), sub, policy)).toBe(true);
    expect(canChangeSubscription(user({ id: "U0ALLOWED" }), sub, policy)).toBe(true);
    expect(canChangeSubscription(user({ id: "U0INSTALL" }), sub, policy, "U0INSTALL")).toBe(true);
    expect(canChangeSubscription(user({ id: "U0OWNERX1" }), sub, policy)).toBe(true);
    expect(canChangeSubscription(user(), sub, policy)).toBe(false);
    expect(canChangeSubscription(user({ id: "U0OWNERX1", deleted: true }), sub, policy)).toBe(false);
    expect(() => requireChange(user(), sub, policy)).toThrow(/Only the owner/);
  });

  it("a channel's own subscriptions come first; a row's block id gives its page", () => {
    const subs = ["C1", "C2", "C1", "C3"].map((channelId, i) => ({ id: `s${i}`, channelId }) as Subscription);
    expect(channelFirst(subs, "C1").map((s) => s.id)).toEqual(["s0", "s2", "s1", "s3"]);
    expect(channelFirst(subs, undefined)).toBe(subs);
    expect(pageOffsetOf("sub_0", "sub_")).toBe(0);
    expect(pageOffsetOf("sub_23", "sub_")).toBe(20);
    expect(pageOffsetOf("sub_x", "sub_")).toBe(0);
    expect(pageOffsetOf(undefined, "sub_")).toBe(0);
  });
});
