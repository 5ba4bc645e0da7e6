import { describe, expect, it } from "vitest";
import { scheduledExtras } from "../../src/digests/scheduled.ts";
import { fromHash, toHash } from "../../src/subscriptions/codec.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { validateFields } from "../../src/subscriptions/validate.ts";
import { storedSubscription } from "../fixtures/subscription.ts";

const REF = { teamId: "T0CODEC01" };
const sub: Subscription = storedSubscription({
  id: "abc123",
  ref: REF,
  channelId: "C0GENERAL",
  ownerId: "U0ADMIN01",
  schedule: { kind: "daily" },
  createdAt: "2026-11-01T00:00:00.000Z",
});

describe("the drivers option of a subscription", () => {
  it("reads a record stored before the option as on, and stores nothing for the default", () => {
    const h = toHash(sub);
    expect(h).not.toHaveProperty("drivers");
    expect(fromHash(sub.id, REF, h)).toEqual(sub);
    expect(fromHash(sub.id, REF, h)?.drivers).toBeUndefined();
  });

  it("round-trips off, and on again after being off", () => {
    const off = toHash({ ...sub, drivers: false });
    expect(off.drivers).toBe("0");
    expect(fromHash(sub.id, REF, off)?.drivers).toBe(false);
    expect(fromHash(sub.id, REF, toHash({ ...sub, drivers: true }))?.drivers).toBe(true);
    // Junk in the field is not "off": an unreadable value keeps the default.
    expect(fromHash(sub.id, REF, { ...off, drivers: "maybe" })?.drivers).toBeUndefined();
  });

  it("is validated as a boolean and left out when not chosen", () => {
    const input = { channelId: "C0GENERAL", schedule: { kind: "daily" as const }, tz: "UTC" };
    const now = new Date("2026-11-20T12:00:00Z");
    expect(validateFields(input, now)).not.toHaveProperty("drivers");
    expect(validateFields({ ...input, drivers: false }, now).drivers).toBe(false);
    expect(() => validateFields({ ...input, drivers: "no" as unknown as boolean }, now)).toThrow(
      expect.objectContaining({ code: "invalid_subscription", details: { field: "drivers" } }),
    );
  });

  it("asks scheduled digests for optional drivers by default, and the subscription's own chart style", () => {
    expect(scheduledExtras({})).toEqual({ drivers: "optional", driversFirstAsk: "window" });
    expect(scheduledExtras({ drivers: true, chart: "png" })).toEqual({
      drivers: "optional",
      driversFirstAsk: "window",
      chart: "png",
    });
    expect(scheduledExtras({ drivers: false })).toEqual({});
    expect(scheduledExtras({ drivers: false, chart: "off" })).toEqual({ chart: "off" });
  });

  it("an unusual condition asks for its weekday series; an alert's check for no breakdown", () => {
    expect(scheduledExtras({ condition: "when findings unusual" })).toEqual({
      drivers: "optional",
      driversFirstAsk: "window",
      weekday: true,
    });
    expect(scheduledExtras({ mode: "alert", condition: "when violations > 5" })).toEqual({});
    expect(scheduledExtras({ mode: "alert", condition: "when violations unusual", chart: "png" })).toEqual({
      chart: "png",
      weekday: true,
    });
  });
});

describe("the chart option of a subscription", () => {
  it("stores nothing for the workspace's setting, round-trips a choice, and reads junk as unset", () => {
    expect(toHash(sub)).not.toHaveProperty("ch");
    const png = toHash({ ...sub, chart: "png" });
    expect(png.ch).toBe("png");
    expect(fromHash(sub.id, REF, png)?.chart).toBe("png");
    expect(fromHash(sub.id, REF, { ...png, ch: "svg" })?.chart).toBeUndefined();
  });

  it("is validated as native, png or off and left out when not chosen", () => {
    const input = { channelId: "C0GENERAL", schedule: { kind: "daily" as const }, tz: "UTC" };
    const now = new Date("2026-11-20T12:00:00Z");
    expect(validateFields(input, now)).not.toHaveProperty("chart");
    expect(validateFields({ ...input, chart: "off" }, now).chart).toBe("off");
    expect(() => validateFields({ ...input, chart: "svg" as never }, now)).toThrow(
      expect.objectContaining({ code: "invalid_subscription", details: { field: "chart" } }),
    );
  });
});
