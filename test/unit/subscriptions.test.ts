import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { classifyFailure } from "../../src/jobs/failures.ts";
import { failureNotice, ownerPausedNotice } from "../../src/jobs/notices.ts";
import { SlackCallError } from "../../src/jobs/slack-api.ts";
import { fromHash, toHash } from "../../src/subscriptions/codec.ts";
import {
  compactRef,
  isSubscriptionId,
  newSubscriptionId,
  parseSchedulerId,
  schedulerIdFor,
} from "../../src/subscriptions/ids.ts";
import { describeReason } from "../../src/subscriptions/reasons.ts";
import type { Subscription, SubscriptionInput } from "../../src/subscriptions/types.ts";
import { DEFAULT_LIMITS, validateFields } from "../../src/subscriptions/validate.ts";

const NOW = new Date("2026-11-20T12:00:00Z");
const base: SubscriptionInput = {
  channelId: "C0GENERAL",
  schedule: { kind: "weekly", days: ["mon"] },
  tz: "Europe/Berlin",
};

function field(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError && err.code === "invalid_subscription") return String(err.details.field);
    throw err;
  }
  return undefined;
}

describe("validateFields", () => {
  it("fills defaults and normalises", () => {
    const v = validateFields(
      { ...base, schedule: { kind: "weekly", days: ["thu", "mon", "thu"] }, time: "9:05" },
      NOW,
    );
    expect(v).toEqual({
      channelId: "C0GENERAL",
      schedule: { kind: "weekly", days: ["mon", "thu"] },
      time: "09:05",
      tz: "Europe/Berlin",
      range: "last7d",
      assetIds: [],
      scannerIds: [],
      filterLabels: [],
    });
    expect(validateFields({ ...base, range: " LastWeek " }, NOW).range).toBe("lastweek");
  });

  it("names the field of every problem", () => {
    expect(field(() => validateFields({ ...base, channelId: "general" }, NOW))).toBe("channelId");
    expect(field(() => validateFields({ ...base, channelId: "U0MEMBER1" }, NOW))).toBe("channelId");
    expect(field(() => validateFields({ ...base, tz: "Mars/Olympus" }, NOW))).toBe("tz");
    expect(field(() => validateFields({ ...base, time: "25:00" }, NOW))).toBe("time");
    expect(field(() => validateFields({ ...base, range: "last0d" }, NOW))).toBe("range");
    expect(field(() => validateFields({ ...base, schedule: { kind: "weekly", days: [] } }, NOW))).toBe(
      "schedule",
    );
    expect(
      field(() => validateFields({ ...base, schedule: { kind: "weekly", days: ["funday" as never] } }, NOW)),
    ).toBe("schedule");
    expect(field(() => validateFields({ ...base, schedule: { kind: "monthly" } as never }, NOW))).toBe(
      "schedule",
    );
    expect(
      field(() => validateFields({ ...base, schedule: { kind: "cron", expression: "nope" } }, NOW)),
    ).toBe("schedule");
    expect(field(() => validateFields({ ...base, assetIds: ["a\nb"] }, NOW))).toBe("assetIds");
    expect(
      field(() =>
        validateFields({ ...base, scannerIds: Array.from({ length: 21 }, (_, i) => `s${i}`) }, NOW),
      ),
    ).toBe("scannerIds");
  });

  it("takes weekdays, monthly and quarterly schedules, their day as an object or its text", () => {
    const check = (schedule: unknown) =>
      validateFields({ ...base, schedule: schedule as never }, NOW).schedule;
    expect(check({ kind: "weekdays" })).toEqual({ kind: "weekdays" });
    expect(check({ kind: "monthly", on: "last-workday" })).toEqual({
      kind: "monthly",
      on: { kind: "workday", which: "last" },
    });
    expect(check({ kind: "quarterly", on: { kind: "weekday", nth: 1, weekday: "mon" } })).toEqual({
      kind: "quarterly",
      on: { kind: "weekday", nth: 1, weekday: "mon" },
    });
    expect(check({ kind: "monthly", on: { kind: "day", day: 31 } })).toEqual({
      kind: "monthly",
      on: { kind: "day", day: 31 },
    });
    for (const on of [
      "32",
      "fifth-mon",
      "second-workday",
      { kind: "day", day: 0 },
      { kind: "weekday", nth: 5, weekday: "mon" },
      { kind: "weekday", nth: 1, weekday: "funday" },
      { kind: "workday", which: "middle" },
      null,
    ])
      expect(field(() => check({ kind: "monthly", on }))).toBe("schedule");
  });

  it("refuses cron schedules that run more often than the limit, and seconds unless allowed", () => {
    expect(
      field(() => validateFields({ ...base, schedule: { kind: "cron", expression: "*/5 * * * *" } }, NOW)),
    ).toBe("schedule");
    expect(
      validateFields({ ...base, schedule: { kind: "cron", expression: "0 */2 * * *" } }, NOW).schedule,
    ).toEqual({
      kind: "cron",
      expression: "0 */2 * * *",
    });
    const fast = { ...DEFAULT_LIMITS, minIntervalMs: 0 };
    expect(
      field(() => validateFields({ ...base, schedule: { kind: "cron", expression: "* * * * * *" } }, NOW)),
    ).toBe("schedule");
    expect(
      validateFields({ ...base, schedule: { kind: "cron", expression: "* * * * * *" } }, NOW, fast).schedule
        .kind,
    ).toBe("cron");
  });
});

describe("hash codec", () => {
  const sub: Subscription = {
    id: "abcd1234",
    ref: { teamId: "T0DEMO001" },
    channelId: "C0GENERAL",
    ownerId: "U0ADMIN01",
    schedule: { kind: "weekly", days: ["mon", "thu"] },
    time: "09:00",
    tz: "Europe/Berlin",
    range: "last7d",
    assetIds: ["a-1", "a-2"],
    scannerIds: [],
    filterLabels: ["payments / api"],
    status: "paused",
    pausedReason: "is_archived",
    pausedAt: "2026-11-20T12:00:00.000Z",
    createdAt: "2026-11-01T00:00:00.000Z",
    lastDelivery: {
      period: "20261116T080000Z",
      at: "2026-11-16T08:00:01.000Z",
      outcome: "delivered",
      messageTs: "1.2",
    },
    ownerNotifiedReason: "is_archived",
  };

  it("keeps a last delivery's reason whole up to 160 characters, else cut at a word with an ellipsis", () => {
    const reason =
      "violations 12,345,678 yesterday (Mon Nov 23), within a usual Monday (9,876,543–14,567,890)";
    const last = { period: "20261116T080000Z", at: "2026-11-16T08:00:01.000Z", outcome: "skipped" as const };
    expect(
      fromHash(sub.id, sub.ref, toHash({ ...sub, lastDelivery: { ...last, reason } }))?.lastDelivery?.reason,
    ).toBe(reason);
    const long = `${"word ".repeat(60)}end`;
    const kept = fromHash(sub.id, sub.ref, toHash({ ...sub, lastDelivery: { ...last, reason: long } }))
      ?.lastDelivery?.reason;
    expect(kept?.length).toBeLessThanOrEqual(160);
    expect(kept).toMatch(/^(word )+word…$/);
  });

  it("round-trips every field and leaves absent optionals out", () => {
    expect(fromHash(sub.id, sub.ref, toHash(sub))).toEqual(sub);
    const { pausedReason: _a, pausedAt: _b, lastDelivery: _c, ownerNotifiedReason: _d, ...plain } = sub;
    const active = {
      ...plain,
      status: "active" as const,
      schedule: { kind: "cron" as const, expression: "0 9 * * 1-5" },
    };
    const h = toHash(active);
    expect(Object.keys(h)).not.toContain("pausedReason");
    expect(Object.keys(h)).not.toContain("last");
    expect(fromHash(sub.id, sub.ref, h)).toEqual(active);
  });

  it("treats an empty or broken hash as missing", () => {
    expect(fromHash("x", sub.ref, {})).toBeNull();
    expect(fromHash("x", sub.ref, { channel: "C1" })).toBeNull();
    const { lastDelivery, ...withoutLast } = sub;
    expect(
      fromHash("x", sub.ref, { ...toHash(withoutLast), last: "{not json" })?.lastDelivery,
    ).toBeUndefined();
    // Records of older versions kept the outcome as JSON in `last`: still read.
    expect(
      fromHash("x", sub.ref, { ...toHash(withoutLast), last: JSON.stringify(lastDelivery) })?.lastDelivery,
    ).toEqual(lastDelivery);
  });

  it("keeps the last delivery in short fields, each under Redis' 64-byte listpack limit", () => {
    const h = toHash(sub);
    expect(h.last).toBeUndefined();
    expect(Object.values(h).every((v) => v.length <= 64)).toBe(true);
    expect(fromHash(sub.id, sub.ref, h)).toEqual(sub);
  });
});

describe("ids", () => {
  it("makes short, url-safe, colon-free ids", () => {
    const ids = new Set(Array.from({ length: 500 }, newSubscriptionId));
    expect(ids.size).toBe(500);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9]{8}$/);
      expect(isSubscriptionId(id)).toBe(true);
    }
    expect(isSubscriptionId("ab:cd")).toBe(false);
  });

  it("builds scheduler ids without ':' that parse back to the same workspace", () => {
    const refs = [
      { teamId: "T1" },
      { enterpriseId: "E1", teamId: "T1" },
      { enterpriseId: "E1", isEnterpriseInstall: true },
    ];
    for (const ref of refs) {
      const id = schedulerIdFor(ref, "abcd1234");
      expect(id).not.toContain(":");
      expect(parseSchedulerId(id)).toEqual({ ref: compactRef(ref), subId: "abcd1234" });
    }
    expect(schedulerIdFor({ teamId: "T1" }, "abcd1234")).toBe("-.T1.abcd1234");
    expect(parseSchedulerId("some-other-scheduler")).toBeNull();
    expect(parseSchedulerId("-.-.abcd1234")).toBeNull();
    expect(parseSchedulerId("-.T1.AB:CD")).toBeNull();
  });
});

describe("failure rules", () => {
  const slack = (error: string, o: { status?: number; retryAfterMs?: number } = {}) =>
    new SlackCallError(
      o.status && o.status !== 200 ? "slack_http" : "slack_error",
      "chat.postMessage",
      error,
      o,
    );

  it("pauses on the permanent errors and retries the transient ones", () => {
    for (const e of [
      "channel_not_found",
      "is_archived",
      "not_in_channel",
      "invalid_auth",
      "account_inactive",
      "token_revoked",
    ])
      expect(classifyFailure(slack(e))).toEqual({ kind: "permanent", reason: e });
    expect(classifyFailure(new AppError("unauthorized", "x")).kind).toBe("permanent");
    expect(classifyFailure(new AppError("not_connected", "x")).kind).toBe("permanent");
    expect(classifyFailure(new AppError("unavailable", "x")).kind).toBe("transient");
    expect(classifyFailure(new AppError("rate_limited", "x")).kind).toBe("transient");
    expect(classifyFailure(slack("http_503", { status: 503 })).kind).toBe("transient");
    expect(classifyFailure(new SlackCallError("slack_network", "chat.postMessage", "network")).kind).toBe(
      "transient",
    );
    expect(classifyFailure(new Error("ECONNRESET")).kind).toBe("transient");
  });

  it("turns a Slack 429 into a rate limit with its Retry-After, and bad replies into fatal", () => {
    expect(classifyFailure(slack("ratelimited", { status: 429, retryAfterMs: 3000 }))).toEqual({
      kind: "rate_limited",
      reason: "ratelimited",
      retryAfterMs: 3000,
    });
    expect(classifyFailure(new AppError("bad_response", "x")).kind).toBe("fatal");
    expect(classifyFailure(slack("invalid_blocks")).kind).toBe("fatal");
  });
});

describe("notices", () => {
  const sub = {
    id: "abcd1234",
    ref: { teamId: "T1" },
    channelId: "C0GENERAL",
    ownerId: "U0ADMIN01",
    schedule: { kind: "weekly", days: ["mon"] },
    time: "09:00",
    tz: "Europe/Berlin",
    range: "last7d",
    assetIds: [],
    scannerIds: [],
    filterLabels: [],
    status: "paused",
    createdAt: "",
  } satisfies Subscription;

  it("tells the owner what happened, how to fix it and how to resume", () => {
    const { text } = ownerPausedNotice(sub, "is_archived");
    expect(text).toContain("<#C0GENERAL>");
    expect(text).toContain("Weekly on Mon at 09:00 Europe/Berlin");
    expect(text).toContain(describeReason("is_archived").what);
    expect(text).toContain("Unarchive");
    expect(text).toContain("/insights resume abcd1234");
  });

  it("reports a failed run without a single number", () => {
    const { text } = failureNotice(sub, "20261116T080000Z", "unavailable");
    expect(text).toContain("could not be delivered because the analytics service did not answer");
    expect(text).toContain("<!date^1794816000^");
    expect(text.replace(/<!date\^\d+\^[^>]*>/, "").replace(/\d{2}:\d{2}/, "")).not.toMatch(/\d/);
  });

  it("describes unknown reasons generically", () => {
    expect(describeReason("weird_error").what).toContain("weird_error");
    expect(describeReason("Because I said so").what).toBe("Because I said so");
  });
});
