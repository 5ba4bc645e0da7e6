import { describe, expect, it } from "vitest";
import { delta } from "../../src/insights/index.ts";

const MAX = Number.MAX_SAFE_INTEGER;

describe("delta", () => {
  // [what, current, previous, change, pct, direction, isNew]
  const cases: [string, number, number, number, number | null, string, boolean][] = [
    ["up", 9, 8, 1, 12.5, "up", false],
    ["down", 97, 100, -3, -3, "down", false],
    ["equal periods", 42, 42, 0, 0, "flat", false],
    ["previous 0 → new", 5, 0, 5, null, "up", true],
    ["current 0", 0, 7, -7, -100, "down", false],
    ["both 0 is flat, 0%", 0, 0, 0, 0, "flat", false],
    ["huge current over 1", MAX, 1, MAX - 1, (MAX - 1) * 100, "up", false],
    ["huge both equal", MAX, MAX, 0, 0, "flat", false],
    ["huge previous to 0", 0, MAX, -MAX, -100, "down", false],
    ["huge new", MAX, 0, MAX, null, "up", true],
  ];

  it.each(cases)("%s", (_what, current, previous, change, pct, direction, isNew) => {
    const d = delta(current, previous, "up-is-bad");
    expect(d).toMatchObject({ current, previous, change, direction, isNew });
    if (pct === null) expect(d.pct).toBeNull();
    else expect(d.pct).toBeCloseTo(pct, 6);
    for (const n of [d.change, d.pct ?? 0]) expect(Number.isFinite(n)).toBe(true);
  });

  it.each([
    ["up-is-bad", 10, 5, "bad"],
    ["up-is-bad", 5, 10, "good"],
    ["up-is-bad", 5, 5, "neutral"],
    ["up-is-good", 10, 5, "good"],
    ["up-is-good", 5, 10, "bad"],
    ["up-is-good", 0, 0, "neutral"],
    ["up-is-good", 3, 0, "good"],
  ] as const)("%s: %d vs %d → %s", (polarity, current, previous, sentiment) => {
    expect(delta(current, previous, polarity).sentiment).toBe(sentiment);
  });

  it("a negative previous (never valid, but possible in bad data) keeps the sign of the change", () => {
    const d = delta(5, -5, "up-is-bad");
    expect(d.pct).toBe(200);
    expect(d.isNew).toBe(false);
  });
});
