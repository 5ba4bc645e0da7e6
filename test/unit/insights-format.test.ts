import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  delta,
  directionMark,
  formatCount,
  formatPct,
  formatRate,
  formatSigned,
  MINUS,
} from "../../src/insights/index.ts";

describe("formatCount", () => {
  it.each([
    [0, {}, "0"],
    [999, {}, "999"],
    [1234567, {}, "1,234,567"],
    [-1234, {}, `${MINUS}1,234`],
    [Number.MAX_SAFE_INTEGER, {}, "9,007,199,254,740,991"],
    [1234567, { compact: true }, "1.2M"],
    [12345, { compact: true }, "12.3K"],
    [999, { compact: true }, "999"],
    [1000, { compact: true }, "1K"],
    [999_950, { compact: true }, "1M"],
    [999_949, { compact: true }, "999.9K"],
    [-2_500_000_000, { compact: true }, `${MINUS}2.5B`],
    [Number.MAX_SAFE_INTEGER, { compact: true }, "9,007.2T"],
    [Number.NaN, {}, "—"],
    [Number.POSITIVE_INFINITY, { compact: true }, "—"],
  ])("%d %j → %s", (n, options, text) => {
    expect(formatCount(n, options)).toBe(text);
  });

  it("signs changes", () => {
    expect(formatSigned(1234)).toBe("+1,234");
    expect(formatSigned(-56)).toBe(`${MINUS}56`);
    expect(formatSigned(0)).toBe("0");
    expect(formatSigned(2_500_000, { compact: true })).toBe("+2.5M");
  });
});

describe("formatPct", () => {
  it.each([
    [9, 8, "+12.5%"],
    [97, 100, `${MINUS}3%`],
    [5, 0, "new"],
    [0, 0, "0%"],
    [7, 7, "0%"],
    [0, 7, `${MINUS}100%`],
    [350, 100, "+250%"],
    [1_234_500, 100, "+1,234,400%"],
    [100_001, 100_000, "+<0.1%"],
    [99_999, 100_000, `${MINUS}<0.1%`],
  ])("%d vs %d → %s", (current, previous, text) => {
    expect(formatPct(delta(current, previous, "up-is-bad"))).toBe(text);
  });

  it("stays a plain grouped number at MAX_SAFE_INTEGER", () => {
    expect(formatPct(delta(Number.MAX_SAFE_INTEGER, 1, "up-is-bad"))).toMatch(
      /^\+900,719,925,474,099,\d{3}%$/,
    );
    expect(formatPct(delta(1, Number.MAX_SAFE_INTEGER, "up-is-bad"))).toBe(`${MINUS}100%`);
  });

  it("compact option shortens huge percentages", () => {
    expect(formatPct(delta(Number.MAX_SAFE_INTEGER, 1, "up-is-bad"), { compact: true })).toBe("+900,719.9T%");
    expect(formatPct(delta(1_234_500, 100, "up-is-bad"), { compact: true })).toBe("+1.2M%");
    expect(formatPct(delta(9, 8, "up-is-bad"), { compact: true })).toBe("+12.5%");
  });
});

describe("formatRate and directionMark", () => {
  it.each([
    [0.734, "73.4%"],
    [1, "100%"],
    [0, "0%"],
    [null, "—"],
  ])("rate %s → %s", (rate, text) => {
    expect(formatRate(rate)).toBe(text);
  });

  it("marks direction with plain unicode", () => {
    expect(directionMark(delta(2, 1, "up-is-bad"))).toBe("▲");
    expect(directionMark(delta(1, 2, "up-is-good"))).toBe("▼");
    expect(directionMark(delta(0, 0, "up-is-bad"))).toBe("■");
  });
});

describe("formatCount's own grouping", () => {
  it("matches Intl's en-US whole numbers for every magnitude, rounding and sign", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
          fc.double({ min: -1e12, max: 1e12, noNaN: true }),
          fc.constantFrom(0, 0.5, 1.5, 2.5, 999.5, 999_999.5, -0.4, 2 ** 53, 1e21),
        ),
        (n) => {
          const expected = intl.format(Math.abs(n));
          const text = formatCount(n);
          expect(text.replace("\u2212", "")).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
