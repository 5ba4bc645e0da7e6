import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSlotWarmMarks } from "../../src/jobs/slot-warm-marks.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { backends, useRedis } from "../setup/backends.ts";

/**
 * One fire's warm-up mark on real Redis: one claimer, walked only under a standing claim, seen by the
 * fan-out once walked, and gone with its TTL (the next fire of the slot is a new mark).
 */

describe.each(backends())("a slot's warm-up mark ($name)", ({ url }) => {
  const redis = useRedis(url);
  const keys = createKeyScheme({ prefix: `t-marks-${randomBytes(4).toString("hex")}` });
  const marks = createSlotWarmMarks({ redis, keys });
  const slot = "s000000000000001";

  it("is claimed once per fire, and says walked only after the walk", async () => {
    const period = "20261128T090000Z";
    expect(await marks.walkedAhead(slot, period)).toBe(false);
    expect(await marks.claim(slot, period, 5_000)).toBe(true);
    expect(await marks.claim(slot, period, 5_000)).toBe(false);
    // Claimed, not walked yet: the fan-out still warms.
    expect(await marks.walkedAhead(slot, period)).toBe(false);
    await marks.walked(slot, period, 5_000);
    expect(await marks.walkedAhead(slot, period)).toBe(true);
    expect(await redis.pttl(keys.slotWarm(slot, period))).toBeGreaterThan(0);
    // Another fire of the slot is its own mark.
    expect(await marks.claim(slot, "20261129T090000Z", 5_000)).toBe(true);
  });

  it("is not marked walked without a standing claim, and expires with its TTL", async () => {
    const period = "20261128T100000Z";
    await marks.walked(slot, period, 5_000);
    expect(await marks.walkedAhead(slot, period)).toBe(false);
    expect(await marks.claim(slot, period, 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    expect(await marks.claim(slot, period, 5_000)).toBe(true);
  });
});
