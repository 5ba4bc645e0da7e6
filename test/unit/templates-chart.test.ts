import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkMessageBlocks } from "../../sandbox/slack/blockkit/index.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import type { Block, ContextBlock, DataVisualizationBlock, Message } from "../../src/blockkit/types.ts";
import { BLOCK } from "../../src/ids.ts";
import { trendBuckets } from "../../src/insights/trend-buckets.ts";
import { alertEpisodeMessage, alertHead, alertMessage } from "../../templates/alert-message.ts";
import { SERIES_NAMES, trendChartBlocks } from "../../templates/digest-chart.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { makeView } from "./fixtures/digest-view.ts";
import { day, points, trendView } from "./fixtures/trend-view.ts";

const chartOf = (m: Message) =>
  m.blocks.find((b): b is DataVisualizationBlock => b.type === "data_visualization");
/** The context line right under the chart. */
const notesOf = (m: Message) => {
  const i = m.blocks.findIndex((b) => b.type === "data_visualization");
  return ((m.blocks[i + 1] as ContextBlock).elements[0] as { text: string }).text;
};
const values = (c: DataVisualizationBlock, name: string) =>
  c.chart.series.find((s) => s.name === name)?.data.map((p) => p.value);

/** Valid for the app's checker and for the stand-in's own (Slack's reference, not the app's table). */
function expectValid(m: Message) {
  expect(checkMessage(m)).toEqual([]);
  expect(checkMessageBlocks(m.blocks)).toEqual([]);
}

describe("the trend as a chart Slack draws", () => {
  it.each([
    [1, 1, "bar", "Violations per day"],
    [7, 7, "line", "Violations per day"],
    [14, 14, "line", "Violations per day"],
    [30, 5, "line", "Violations per day, weekly mean"],
    [90, 13, "line", "Violations per day, weekly mean"],
    [365, 13, "line", "Violations per day, monthly mean"],
    [366, 13, "line", "Violations per day, monthly mean"],
  ])("%i days: valid blocks, %i categories of a %s chart titled %s", (days, n, type, title) => {
    const m = digestMessage(trendView({ days }));
    expectValid(m);
    const c = chartOf(m);
    expect(c).toMatchObject({ block_id: BLOCK.digestChart, title, chart: { type } });
    expect(c?.chart.axis_config.categories).toHaveLength(n);
    expect(c?.chart.series.map((s) => s.name)).toEqual([SERIES_NAMES.current, SERIES_NAMES.previous]);
    // The sparkline section gives way to the chart.
    expect(JSON.stringify(m.blocks)).not.toContain("Daily trend");
  });

  it("labels a week of days by weekday and date, and compares the same days of the previous period", () => {
    const m = digestMessage(trendView({ days: 7, current: (i) => i * 10, previous: (i) => 100 + i }));
    const c = chartOf(m) as DataVisualizationBlock;
    expect(c.chart.axis_config.categories).toEqual([
      "Sun Nov 15",
      "Mon Nov 16",
      "Tue Nov 17",
      "Wed Nov 18",
      "Thu Nov 19",
      "Fri Nov 20",
      "Sat Nov 21",
    ]);
    expect(values(c, SERIES_NAMES.current)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(values(c, SERIES_NAMES.previous)).toEqual([100, 101, 102, 103, 104, 105, 106]);
    expect(notesOf(m)).toContain("Previous period: 2026-11-08 – 2026-11-14, day for day");
  });

  it("reads 30 days as weeks of means per day, laid on the period and the same offsets before it", () => {
    const m = digestMessage(trendView({ days: 30, current: (i) => Math.max(i, 7), previous: () => 3 }));
    const c = chartOf(m) as DataVisualizationBlock;
    expect(c.chart.axis_config.categories).toEqual([
      "Oct 23–29",
      "Oct 30–Nov 5",
      "Nov 6–12",
      "Nov 13–19",
      "Nov 20–21",
    ]);
    // Days 7..13 average 10; the last bucket holds days 28 and 29.
    expect(values(c, SERIES_NAMES.current)).toEqual([7, 10, 17, 24, 28.5]);
    expect(values(c, SERIES_NAMES.previous)).toEqual([3, 3, 3, 3, 3]);
    expect(notesOf(m)).toContain("30 days read as 5 weeks: each point is the mean per day");
  });

  it("reads a year as calendar months, saying the ends may be part-months", () => {
    const m = digestMessage(trendView({ days: 366 }));
    const c = chartOf(m) as DataVisualizationBlock;
    expect(c.chart.axis_config.categories[0]).toBe("Nov 2025");
    expect(c.chart.axis_config.categories.at(-1)).toBe("Nov 2026");
    expect(notesOf(m)).toContain("(the first and last may be part-months)");
  });

  it("shows today's partial day as 'so far' day by day, and keeps it out of a week's mean", () => {
    const daily = digestMessage(
      trendView({ days: 7, partialFrom: "2026-11-21", current: (i) => (i === 6 ? 2 : 50) }),
    );
    const c = chartOf(daily) as DataVisualizationBlock;
    expect(c.chart.axis_config.categories.at(-1)).toBe("Sat Nov 21 so far");
    expect(values(c, SERIES_NAMES.current)?.at(-1)).toBe(2);
    expect(notesOf(daily)).toContain("Sat Nov 21 is today so far (partial)");

    const weekly = digestMessage(
      trendView({ days: 30, partialFrom: "2026-11-21", current: (i) => (i === 29 ? 1 : 40) }),
    );
    const w = chartOf(weekly) as DataVisualizationBlock;
    // The last week (Nov 20–21) is Friday's 40 alone: today's 1 would drag the mean to 20.5.
    expect(values(w, SERIES_NAMES.current)?.at(-1)).toBe(40);
    expect(notesOf(weekly)).toContain(
      "today (Sat Nov 21) is left out of its week's mean until it is complete",
    );
  });

  it("leaves a day without data out of the chart, says so, and never draws it as zero", () => {
    const m = digestMessage(
      trendView({ days: 7, current: (i) => (i === 2 ? null : 20), previous: (i) => (i === 4 ? null : 5) }),
    );
    const c = chartOf(m) as DataVisualizationBlock;
    expectValid(m);
    expect(c.chart.axis_config.categories).not.toContain("Tue Nov 17");
    expect(c.chart.axis_config.categories).not.toContain("Thu Nov 19");
    expect(c.chart.axis_config.categories).toHaveLength(5);
    expect(values(c, SERIES_NAMES.current)).not.toContain(0);
    expect(notesOf(m)).toContain(
      "Left out, not drawn as zero: Tue Nov 17 (no data), Thu Nov 19 (no data in the previous period)",
    );

    const weekly = digestMessage(trendView({ days: 30, current: (i) => (i % 10 === 0 ? null : 9) }));
    expect(values(chartOf(weekly) as DataVisualizationBlock, SERIES_NAMES.current)).toEqual([9, 9, 9, 9, 9]);
    expect(notesOf(weekly)).toContain("3 days without data left out of the means");
  });

  it("draws this period alone when the previous one is unknown, and nothing when no day has data", () => {
    const alone = digestMessage(trendView({ days: 7, previous: null }));
    expect(chartOf(alone)?.chart.series.map((s) => s.name)).toEqual([SERIES_NAMES.current]);
    expect(notesOf(alone)).toContain("No previous-period line");
    const empty = trendView({ days: 7, current: () => null });
    expect(trendChartBlocks(empty)).toBeNull();
    const m = digestMessage(empty);
    expect(chartOf(m)).toBeUndefined();
    // The digest falls back to its words (the sparkline section), with no chart block.
    expect(JSON.stringify(m.blocks)).toContain("Daily trend");
  });

  it("keeps the text sparkline and image for digests that are not native", () => {
    const m = digestMessage(makeView());
    expect(chartOf(m)).toBeUndefined();
    expect(JSON.stringify(m.blocks)).toContain("Daily trend");
    const png = digestMessage(trendView({ days: 7 }));
    expect(chartOf(digestMessage({ ...trendView({ days: 7 }), chartStyle: "png" }))).toBeUndefined();
    expect(chartOf(png)).toBeDefined();
  });

  it("stays valid for any range of 1 to 366 days, any gaps, partial days and huge numbers", () => {
    const value = fc.oneof(fc.constant(null), fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 366 }),
        fc.array(value, { minLength: 366, maxLength: 366 }),
        fc.array(value, { minLength: 366, maxLength: 366 }),
        fc.option(fc.integer({ min: 0, max: 365 }), { nil: null }),
        fc.boolean(),
        (days, cur, prev, partialAt, withPrevious) => {
          const view = trendView({
            days,
            current: (i) => cur[i] ?? null,
            previous: withPrevious ? (i) => prev[i] ?? null : null,
            partialFrom: partialAt === null ? null : day("2026-11-21", -Math.min(partialAt, days - 1)),
          });
          const m = digestMessage(view);
          expectValid(m);
          const c = chartOf(m);
          if (!c) return;
          expect(c.chart.axis_config.categories.length).toBeLessThanOrEqual(20);
          for (const s of c.chart.series) for (const p of s.data) expect(Number.isFinite(p.value)).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe("trend buckets", () => {
  it("takes an aggregated bucket's mean over the days with data only", () => {
    const series = points("2026-11-01", [10, null, 20, null, null, null, 30, 4]);
    const { granularity, buckets } = trendBuckets(
      [
        ...series,
        ...points(
          "2026-11-09",
          Array.from({ length: 9 }, () => 1),
        ),
      ],
      undefined,
      null,
    );
    expect(granularity).toBe("week");
    expect(buckets[0]).toMatchObject({ from: "2026-11-01", to: "2026-11-07", current: 20, missingDays: 4 });
    expect(buckets[0]?.previous).toBeNull();
  });

  it("counts a partial day in an aggregated bucket only when it is the bucket's only data", () => {
    const series = points("2026-11-01", [...Array.from({ length: 14 }, () => 5), 99]);
    const b = trendBuckets([...series, ...points("2026-11-16", [1, 1])], undefined, "2026-11-15");
    // Days 15..17 form the last bucket: the 99 of Nov 15 and the later days are all partial.
    expect(b.buckets.at(-1)).toMatchObject({ current: 33.7, partial: true });
    expect(b.buckets[0]).toMatchObject({ current: 5, partial: false });
  });
});

describe("the chart's blocks", () => {
  it("come as a chart and its notes, ready to sit in a message", () => {
    const blocks = trendChartBlocks(trendView({ days: 7 })) as Block[];
    expect(blocks.map((b) => b.type)).toEqual(["data_visualization", "context"]);
  });
});

describe("an alert's message", () => {
  it("carries the trend as a chart when the digest is native, and passes both checks", () => {
    const a = {
      kind: "check" as const,
      reason: "violations 612 > 500",
      condition: "when violations > 500",
      schedule: "Hourly at :00 UTC",
      subId: "abc123",
      met: true,
    };
    const native = alertMessage({ ...a, view: trendView({ days: 30 }) });
    expectValid(native);
    expect(chartOf(native)?.chart.axis_config.categories).toHaveLength(5);
    expect(
      chartOf(alertMessage({ ...a, view: { ...trendView({ days: 30 }), chartStyle: "off" } })),
    ).toBeUndefined();
  });
});

describe("an alert episode's message", () => {
  const head = (view: ReturnType<typeof trendView>) =>
    alertHead({
      reason: "violations 412 yesterday (Tue Nov 24); a usual Tuesday is 150–210, 2.3× its median",
      condition: "when violations unusual",
      view,
      schedule: "Hourly at :00 UTC",
      subId: "abc123",
    });
  const firing = { id: "20261125T010000Z", firedAt: "2026-11-25T01:00:00.000Z", state: "firing" as const };
  const states = [
    ["firing", firing],
    ["acknowledged", { ...firing, acknowledged: { by: "U0ADMIN01", at: "2026-11-25T02:00:00.000Z" } }],
    [
      "snoozed",
      {
        ...firing,
        snoozed: {
          kind: "day" as const,
          until: "2026-11-26T02:00:00.000Z",
          by: "U0ADMIN01",
          at: "2026-11-25T02:00:00.000Z",
        },
      },
    ],
    [
      "cleared",
      {
        ...firing,
        state: "clear" as const,
        cleared: {
          at: "2026-11-26T01:00:00.000Z",
          reason: "violations 180 yesterday, within a usual Wednesday",
        },
      },
    ],
  ] as const;

  it.each(states)(
    "carries the trend as a chart when native, %s as when it fired, valid for both checkers",
    (_, e) => {
      const { head: blocks, text } = head(trendView({ days: 30 }));
      const m = alertEpisodeMessage(blocks, text, "abc123", e);
      expectValid(m);
      expect(chartOf(m)?.chart.axis_config.categories).toHaveLength(5);
      expect(notesOf(m)).toBeTruthy();
    },
  );

  it("has no chart when the digest's chart is off (the fallback Slack refusing it gets)", () => {
    const { head: blocks, text } = head({ ...trendView({ days: 30 }), chartStyle: "off" });
    const m = alertEpisodeMessage(blocks, text, "abc123", firing);
    expectValid(m);
    expect(chartOf(m)).toBeUndefined();
  });
});
