import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dayTicks } from "../../src/chart/days.ts";
import { formatCompact, formatCount, formatTick } from "../../src/chart/format.ts";
import { gapRuns, linePath } from "../../src/chart/lines.ts";
import { encodePng } from "../../src/chart/png.ts";
import { niceTicks } from "../../src/chart/scale.ts";
import { escapeXml, estimateWidth, fitText } from "../../src/chart/text.ts";
import { decodePng, makeSeries } from "./chart-helpers.ts";

describe("number labels", () => {
  it("groups thousands with commas, independent of locale", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-12500)).toBe("-12,500");
    expect(formatCount(Number.NaN)).toBe("–");
  });

  it("goes compact from a million up", () => {
    expect(formatCompact(999_999)).toBe("999,999");
    expect(formatCompact(1_000_000)).toBe("1M");
    expect(formatCompact(2_450_000)).toBe("2.5M");
    expect(formatCompact(1.2e12)).toBe("1.2T");
    expect(formatCompact(3e9)).toBe("3B");
    expect(formatCompact(999.96e9)).toBe("1T");
    expect(formatCompact(2e15)).toBe("2.0e15");
  });

  it("keeps neighbouring ticks distinct", () => {
    const ticks = niceTicks(0, 1.2e12);
    const labels = ticks.values.map((v) => formatTick(v, ticks.step));
    expect(labels).toEqual(["0", "250B", "500B", "750B", "1T", "1.25T"]);
  });
});

describe("niceTicks", () => {
  it("rounds the top up to a nice step", () => {
    expect(niceTicks(0, 870)).toEqual({
      min: 0,
      max: 1000,
      step: 200,
      values: [0, 200, 400, 600, 800, 1000],
    });
  });

  it("gives an all-zero series an axis of 0..4", () => {
    expect(niceTicks(0, 0).values).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(Number.NaN, Number.POSITIVE_INFINITY).values).toEqual([0, 1, 2, 3, 4]);
  });

  it("always covers the data with whole-number steps and a handful of ticks", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e13, noNaN: true }), (top) => {
        const t = niceTicks(0, top);
        expect(t.min).toBe(0);
        expect(t.max).toBeGreaterThanOrEqual(top);
        expect(Number.isInteger(t.step)).toBe(true);
        expect(t.values.length).toBeGreaterThanOrEqual(3);
        expect(t.values.length).toBeLessThanOrEqual(8);
      }),
    );
  });

  it("includes negative data below zero", () => {
    const t = niceTicks(-30, 100);
    expect(t.min).toBeLessThanOrEqual(-30);
    expect(t.values).toContain(0);
  });
});

describe("dayTicks", () => {
  /** The tick labels of `n` days from `start` with room for at most `max`. */
  const labels = (n: number, start: string, max: number) =>
    dayTicks(
      makeSeries(n, start).map((p) => p.day),
      max,
    ).map((t) => t.label);

  it("thins labels counting back from the last day", () => {
    const days = makeSeries(30, "2026-11-01").map((p) => p.day);
    const ticks = dayTicks(days, 8);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks.at(-1)).toEqual({ index: 29, label: "Nov 30" });
  });

  it("names the new year where a range crosses it", () => {
    const days = makeSeries(14, "2026-12-25").map((p) => p.day);
    const labels = dayTicks(days, 14).map((t) => t.label);
    expect(labels[0]).toBe("Dec 25");
    expect(labels).toContain("Jan 1 2027");
    expect(labels.filter((l) => l.includes("2027"))).toHaveLength(1);
  });

  it.each([
    {
      range: "labels every day of a week",
      n: 7,
      start: "2026-11-24",
      max: 12,
      want: ["Nov 24", "Nov 25", "Nov 26", "Nov 27", "Nov 28", "Nov 29", "Nov 30"],
    },
    {
      range: "switches to month starts for a year",
      n: 365,
      start: "2026-01-01",
      max: 12,
      want: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    },
    {
      range: "keeps every third month start when room is short",
      n: 365,
      start: "2026-01-01",
      max: 5,
      want: ["Jan", "Apr", "Jul", "Oct"],
    },
  ])("$range", ({ n, start, max, want }) => {
    expect(labels(n, start, max)).toEqual(want);
  });

  it("skips malformed days instead of printing garbage", () => {
    expect(dayTicks(["nope", "2026-13-01", "2026-02-03"], 5)).toEqual([{ index: 2, label: "Feb 3" }]);
    expect(dayTicks([], 5)).toEqual([]);
  });
});

describe("linePath", () => {
  it("breaks at nulls and keeps lone points", () => {
    expect(
      linePath(
        [1, null, 3, 4],
        (i) => i * 10,
        (v) => v,
      ),
    ).toEqual({ d: "M20 3L30 4", lonely: [[0, 1]] });
    expect(
      linePath(
        [null, null],
        (i) => i,
        (v) => v,
      ),
    ).toEqual({ d: "", lonely: [] });
  });

  it("merges consecutive missing days into runs", () => {
    expect(gapRuns(8, (i) => [1, 2, 3, 6].includes(i))).toEqual([
      [1, 3],
      [6, 6],
    ]);
  });
});

describe("text", () => {
  it("escapes markup and drops characters XML cannot hold", () => {
    expect(escapeXml(`<a href="x">&'</a>\u0001\n`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt; ");
    expect(escapeXml("\uD800x")).toBe("\uFFFDx");
  });

  it("cuts text to a width with an ellipsis, and leaves short text alone", () => {
    expect(fitText("short", 200, 13)).toBe("short");
    const cut = fitText("payments-platform / checkout-service-api-gateway-v2", 120, 13);
    expect(cut.endsWith("…")).toBe(true);
    expect(estimateWidth(cut, 13)).toBeLessThanOrEqual(120);
  });
});

describe("encodePng", () => {
  it("round-trips RGBA pixels through a valid PNG", () => {
    const rgba = Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 128]);
    for (const level of [1, 9]) {
      const png = decodePng(encodePng(rgba, 2, 2, level));
      expect([png.width, png.height, png.channels]).toEqual([2, 2, 4]);
      expect(Array.from(png.data)).toEqual(Array.from(rgba));
    }
  });

  it("writes correct chunk checksums", () => {
    // CRC of an IEND chunk is fixed by the PNG spec: AE 42 60 82.
    const png = encodePng(new Uint8Array(4), 1, 1);
    expect(Array.from(png.subarray(-4))).toEqual([0xae, 0x42, 0x60, 0x82]);
  });

  it("refuses pixel data of the wrong size", () => {
    expect(() => encodePng(new Uint8Array(3), 1, 1)).toThrow(RangeError);
  });
});
