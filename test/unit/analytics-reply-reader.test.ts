import { describe, expect, it } from "vitest";
import { AnalyticsError } from "../../src/analytics/index.ts";
import { readInsights, readSlices } from "../../src/analytics/reply-reader.ts";
import {
  insightsBySchema,
  parseInsightsData,
  parseSlicesData,
  slicesBySchema,
} from "../../src/analytics/schema.ts";

/*
 * The plain readers stand in for the zod schemas on well-formed replies: whatever they take, the
 * schema takes and turns into the same value; whatever the schema refuses, they refuse (so the
 * schema's error is what the caller sees). Checked over a reply and every one-leaf change to it.
 */

const slicesReply = () => ({
  s0: {
    m: [
      { t: "2026-11-01T00:00:00", v: 3, f: 5, extra: "kept out" },
      { t: "2026-11-02T00:00:00.000Z", v: 0, f: 0 },
    ],
    a: [{ t: "2026-11-01T00:00:00+00:00", x: 1, g: 2 }],
  },
  s1: { m: [], a: [{ t: "2026-11-03T00:00:00", x: 0, g: 7 }] },
  unasked: { anything: true },
});

const insightsReply = (filters: unknown) => ({
  insights: {
    dailyMetric: [{ timeStamp: "2026-11-01T00:00:00", violations: 2, findings: 9 }],
    dailyActivity: [{ timeStamp: "2026-11-01T00:00:00.0+0000", fixedViolations: 1, mergedViolations: 0 }],
    summary: {
      findings: { previous: 1, current: 2 },
      violations: { previous: 0, current: 4 },
      fixes: 3,
      mergedViolations: 1,
    },
    filters,
    stray: [1, 2],
  },
});

const ODD: unknown[] = [
  null,
  undefined,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  "3",
  "",
  "x",
  "2026-02-30T00:00:00",
  "2026-11-01T00:00:01",
  "2026-11-01",
  [],
  {},
  true,
];

/** Every copy of `value` with one leaf (or one object or list) replaced by an odd value or removed. */
function variants(value: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (node: unknown, replace: (v: unknown, remove?: boolean) => unknown) => {
    for (const odd of ODD) out.push(replace(odd));
    out.push(replace(undefined, true));
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries())
        walk(child, (v, remove) => {
          const copy = [...node];
          if (remove) copy.splice(i, 1);
          else copy[i] = v;
          return replace(copy);
        });
    } else if (typeof node === "object" && node !== null)
      for (const key of Object.keys(node))
        walk((node as Record<string, unknown>)[key], (v, remove) => {
          const copy: Record<string, unknown> = { ...(node as Record<string, unknown>) };
          if (remove) delete copy[key];
          else copy[key] = v;
          return replace(copy);
        });
  };
  walk(value, (v) => v);
  return out;
}

function bySchema<T>(f: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: f() };
  } catch (err) {
    expect(err).toBeInstanceOf(AnalyticsError);
    return { ok: false };
  }
}

describe("the plain reply readers", () => {
  it("read a well-formed slices reply as the schema does, and refuse whatever the schema refuses", () => {
    const aliases = ["s0", "s1"];
    expect(readSlices(slicesReply(), aliases)).toEqual(slicesBySchema(slicesReply(), aliases));
    expect(readSlices(slicesReply(), aliases)?.[0]?.dailyMetric[1]?.timeStamp).toBe("2026-11-02T00:00:00");
    let taken = 0;
    for (const data of variants(slicesReply())) {
      const fast = readSlices(data, aliases);
      const ref = bySchema(() => slicesBySchema(data, aliases));
      if (fast) {
        taken++;
        expect(ref.ok ? ref.value : "refused by the schema").toEqual(fast);
      }
      if (ref.ok) expect(parseSlicesData(data, aliases)).toEqual(ref.value);
      else expect(() => parseSlicesData(data, aliases)).toThrow(AnalyticsError);
    }
    // Most one-leaf changes are refused; the readers still take the harmless ones (a stray key gone, …).
    expect(taken).toBeGreaterThan(0);
  });

  it("read a well-formed insights reply, with or without filters, as the schema does", () => {
    const lists = {
      scannerId: [{ value: "sast", displayValue: "SAST" }],
      assetId: [{ value: "a1", displayValue: "" }],
    };
    for (const filters of [lists, null, undefined]) {
      const reply = insightsReply(filters);
      const fast = readInsights(reply);
      expect(fast).not.toBeNull();
      expect(fast).toEqual(insightsBySchema(reply));
      let taken = 0;
      for (const data of variants(reply)) {
        const read = readInsights(data);
        const ref = bySchema(() => insightsBySchema(data));
        if (read) {
          taken++;
          expect(ref.ok ? ref.value : "refused by the schema").toEqual(read);
        }
        for (const withFilters of [true, false])
          if (ref.ok)
            expect(parseInsightsData(data, withFilters)).toEqual(
              parseInsightsDataBySchema(ref.value, withFilters),
            );
          else expect(() => parseInsightsData(data, withFilters)).toThrow(AnalyticsError);
      }
      expect(taken).toBeGreaterThan(0);
    }
  });
});

/** What parseInsightsData makes of the schema's value: `filters` only when selected and present. */
function parseInsightsDataBySchema(value: ReturnType<typeof insightsBySchema>, withFilters: boolean) {
  const { filters, ...rest } = value;
  return withFilters && filters ? { ...rest, filters } : rest;
}
