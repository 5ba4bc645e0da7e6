import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAppError } from "../../src/errors.ts";
import { addDays, isoWeekday } from "../../src/insights/days.ts";
import type { DayPoint } from "../../src/insights/types.ts";
import type { WeekdaySeries } from "../../src/insights/unusual.ts";
import { alertStep, type Snooze } from "../../src/subscriptions/alerts.ts";
import { conditionText, evaluate, judge, parseCondition } from "../../src/subscriptions/conditions.ts";
import { makeDelta, makeDigest } from "./fixtures/digest-view.ts";

const digest = (findings: [number, number], violations: [number, number], fixes = 10) =>
  makeDigest({ findings: makeDelta(...findings), violations: makeDelta(...violations), fixes });

const gap = (d: ReturnType<typeof makeDigest>) =>
  makeDigest({
    ...d,
    series: d.series.map((p, i) => (i === 3 ? { ...p, findings: null, violations: null } : p)),
    seriesCheck: { ...d.seriesCheck, ok: false, missingDays: [d.series[3]?.day as string] },
  });

describe("condition grammar", () => {
  it.each([
    [
      "when violations changed 10%",
      { kind: "change", metric: "violations", by: 10, unit: "pct", direction: "any" },
    ],
    ["violations up 10%", { kind: "change", metric: "violations", by: 10, unit: "pct", direction: "up" }],
    [
      "when findings down 1,500",
      { kind: "change", metric: "findings", by: 1500, unit: "count", direction: "down" },
    ],
    ["when violations > 500", { kind: "threshold", metric: "violations", op: ">", value: 500 }],
    ["when fixes below 10", { kind: "threshold", metric: "fixes", op: "<", value: 10 }],
    ["when violations rose 3", { kind: "rising", metric: "violations", periods: 3 }],
    ["when changed", { kind: "changed" }],
    ["WHEN Anything Changed", { kind: "changed" }],
    ["when violations unusual", { kind: "unusual", metric: "violations", direction: "any" }],
    ["when findings unusually high", { kind: "unusual", metric: "findings", direction: "high" }],
    ["when fixed unusually low", { kind: "unusual", metric: "fixes", direction: "low" }],
    [
      "when violations unusual sensitivity high",
      { kind: "unusual", metric: "violations", direction: "any", sensitivity: 3 },
    ],
    [
      "when violations unusually high sensitivity 5.5",
      { kind: "unusual", metric: "violations", direction: "high", sensitivity: 5.5 },
    ],
    // The default is the default: left out of the canonical text.
    [
      "when violations unusual sensitivity normal",
      { kind: "unusual", metric: "violations", direction: "any" },
    ],
  ])("%s", (text, expected) => {
    const c = parseCondition(text);
    expect(c).toEqual(expected);
    expect(parseCondition(conditionText(c))).toEqual(c);
  });

  it.each([
    ["", /empty/],
    ["when vulns up 10%", /not a number I track/],
    ["when violations sideways 10%", /not a condition word/],
    ["when violations up ten", /not a count/],
    ["when violations up -5%", /not a percentage/],
    ["when violations up 0%", /always met/],
    ["when violations rose 1", /2 to 12 periods/],
    ["when fixes up 10%", /no previous period for fixes/],
    ["when violations > 5 please", /don't understand/],
    ["when violations unusually", /needs a direction: when violations unusually high/],
    ["when violations unusually big", /needs a direction/],
    ["when vulns unusual", /not a number I track/],
    ["when violations unusual 4", /don't understand "4" after unusual/],
    ["when violations unusual sensitivity", /don't understand/],
    [
      "when violations unusual sensitivity extreme",
      /not a sensitivity: use low, normal, high or a number from 2/,
    ],
    ["when violations unusual sensitivity 1", /not a sensitivity/],
    ["when violations unusual sensitivity 11", /not a sensitivity/],
    ["when violations unusually high sensitivity low please", /don't understand/],
    ["when violations strange", /use changed, up, down, >, <, rose or unusual/],
  ])("refuses %j with a clear error and the grammar", (text, why) => {
    try {
      parseCondition(text);
      expect.unreachable();
    } catch (err) {
      expect(isAppError(err) && err.code).toBe("bad_condition");
      expect((err as Error).message).toMatch(why);
      expect((err as Error).message).toContain("when violations > 500");
    }
  });
});

describe("evaluating a condition against a digest", () => {
  it("change in % and in count, each true and false, with the value and threshold in the reason", () => {
    const up12 = digest([100, 100], [112, 100]);
    expect(evaluate(parseCondition("when violations up 10%"), up12)).toEqual({
      met: true,
      reason: "violations +12% (≥ 10%)",
    });
    expect(evaluate(parseCondition("when violations up 15%"), up12)).toEqual({
      met: false,
      reason: "violations +12% (< 15%)",
    });
    expect(evaluate(parseCondition("when violations down 10%"), up12).met).toBe(false);
    expect(evaluate(parseCondition("when violations changed 12"), up12).met).toBe(true);
    expect(evaluate(parseCondition("when violations changed 13"), up12).met).toBe(false);
    const down = digest([100, 100], [70, 100]);
    expect(evaluate(parseCondition("when violations down 25%"), down)).toMatchObject({
      met: true,
      reason: "violations −30% (≥ 25%)",
    });
    expect(evaluate(parseCondition("when violations changed 25%"), down).met).toBe(true);
  });

  it("previous = 0: a rise from nothing is 'new' and meets any percentage; 0 → 0 meets none", () => {
    expect(evaluate(parseCondition("when violations up 500%"), digest([1, 1], [3, 0]))).toEqual({
      met: true,
      reason: "violations new (≥ 500%)",
    });
    expect(evaluate(parseCondition("when violations changed 1%"), digest([1, 1], [0, 0])).met).toBe(false);
  });

  it("thresholds on each metric", () => {
    const d = digest([900, 800], [501, 400], 7);
    expect(evaluate(parseCondition("when violations > 500"), d).met).toBe(true);
    expect(evaluate(parseCondition("when violations > 501"), d)).toEqual({
      met: false,
      reason: "violations 501 not > 501",
    });
    expect(evaluate(parseCondition("when fixes < 10"), d).met).toBe(true);
    expect(evaluate(parseCondition("when findings < 900"), d).met).toBe(false);
  });

  it("rising needs enough history, and every step up", () => {
    const c = parseCondition("when violations rose 3");
    const d = digest([1, 1], [50, 40]);
    expect(evaluate(c, d, [10, 20, 30]).met).toBe(true);
    expect(evaluate(c, d, [10, 30, 20]).met).toBe(false);
    expect(evaluate(c, d, [30, 40])).toMatchObject({
      met: false,
      reason: expect.stringContaining("only 2 earlier"),
    });
  });

  it("'when changed' skips a period where nothing moved, posts when anything did", () => {
    expect(evaluate({ kind: "changed" }, digest([5, 5], [3, 3]))).toEqual({
      met: false,
      reason: "nothing changed since the previous period",
    });
    expect(evaluate({ kind: "changed" }, digest([5, 5], [4, 3])).met).toBe(true);
  });

  it("previous = 0 for a count: up by the new count; a fall from 0 is impossible, so `down` is not met", () => {
    expect(evaluate(parseCondition("when violations up 3"), digest([1, 1], [3, 0]))).toEqual({
      met: true,
      reason: "violations +3 (≥ 3)",
    });
    expect(evaluate(parseCondition("when violations up 4"), digest([1, 1], [3, 0])).met).toBe(false);
    expect(evaluate(parseCondition("when findings down 1"), digest([0, 0], [3, 0])).met).toBe(false);
  });

  it.each([
    "when violations up 10%",
    "when violations changed 5",
    "when findings down 20%",
    "when violations > 100000",
    "when fixes < 0",
    "when violations rose 2",
    "when changed",
  ])("with a gap, %s posts instead of skipping, and says the data is incomplete", (text) => {
    const flat = gap(digest([5, 5], [3, 3]));
    const v = evaluate(parseCondition(text), flat, [9, 8]);
    expect(v.met).toBe(true);
    expect(v.reason).toMatch(/^data incomplete \(.+\); posted so the gap is seen$/);
    // The same numbers without the gap skip the run.
    expect(evaluate(parseCondition(text), digest([5, 5], [3, 3]), [9, 8]).met).toBe(false);
  });

  it("a gap in the data is never 'no change': a run that would skip posts and says why", () => {
    const flat = gap(digest([5, 5], [3, 3]));
    const v = evaluate({ kind: "changed" }, flat);
    expect(v.met).toBe(true);
    expect(v.reason).toMatch(/data incomplete/);
    expect(evaluate(parseCondition("when violations > 100"), flat).met).toBe(true);
  });

  it("never throws and always gives a reason, for any counts", () => {
    const conditions = [
      "when violations up 10%",
      "when findings changed 3",
      "when fixes > 5",
      "when changed",
      "when violations rose 2",
    ].map(parseCondition);
    fc.assert(
      fc.property(
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 4 }),
        (f, fp, v, vp, h) => {
          for (const c of conditions) {
            const verdict = evaluate(c, digest([f, fp], [v, vp]), h);
            expect(typeof verdict.met).toBe("boolean");
            expect(verdict.reason.length).toBeGreaterThan(0);
            expect(verdict.reason).not.toMatch(/NaN|Infinity/);
          }
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });
});

describe("alert episodes", () => {
  it("posts once when a condition becomes true and once when it clears, across 100 checks", () => {
    const verdicts = Array.from({ length: 100 }, (_, i) => i >= 20 && i < 60);
    let state: "firing" | "clear" | undefined;
    const posts: string[] = [];
    for (const met of verdicts) {
      const step = alertStep(state, met);
      state = step.state;
      if (step.post) posts.push(step.post);
    }
    expect(posts).toEqual(["fire", "clear"]);
  });

  it("a first check that is clear posts nothing; one that is firing posts the alert", () => {
    expect(alertStep(undefined, false)).toEqual({ state: "clear", post: null });
    expect(alertStep(undefined, true)).toEqual({ state: "firing", post: "fire" });
  });
});

/** 2026-11-24 is a Tuesday: the day judged when "today" is Wednesday the 25th. */
const DAY = "2026-11-24";

function weekly(tuesday: number | null, opts: { yesterday?: string; level?: number } = {}): WeekdaySeries {
  const level = opts.level ?? 180;
  const points: DayPoint[] = Array.from({ length: 57 }, (_, i) => {
    const day = addDays(DAY, i - 56);
    const w = isoWeekday(day);
    const usual = w >= 6 ? level / 10 : w === 1 ? level * 2 : level + ((i * 7) % 23) - 11;
    const v = day === DAY ? tuesday : usual;
    return {
      day,
      violations: v,
      findings: v === null ? null : v * 2,
      fixed: v === null ? null : 10,
      merged: 0,
    };
  });
  return { day: DAY, yesterday: opts.yesterday ?? DAY, points };
}

describe("unusual conditions", () => {
  const unusual = parseCondition("when violations unusual");
  const high = parseCondition("when violations unusually high");
  const low = parseCondition("when violations unusually low");
  const d = digest([1, 1], [1, 1]);

  it("says how far out the day is and what is normal", () => {
    const v = judge(unusual, d, [], weekly(412));
    expect(v.met).toBe(true);
    expect(v.reason).toMatch(
      /^violations 412 yesterday \(Tue Nov 24\); a usual Tuesday is [\d,]+–[\d,]+, 2\.3× its median$/,
    );
    expect(v.unusual).toMatchObject({ kind: "judged", direction: "high", weekday: 2 });
    expect(judge(unusual, d, [], weekly(182))).toMatchObject({
      met: false,
      reason: expect.stringMatching(
        /^violations 182 yesterday \(Tue Nov 24\), within a usual Tuesday \([\d,]+–[\d,]+\)$/,
      ),
    });
    // Judged on a day that is not the reader's yesterday (east of UTC), it is named by its date.
    expect(judge(unusual, d, [], weekly(412, { yesterday: "2026-11-25" })).reason).toMatch(
      /^violations 412 on Tue Nov 24;/,
    );
  });

  it("a direction is met only by a day outside the band on its side", () => {
    expect(judge(high, d, [], weekly(412)).met).toBe(true);
    expect(judge(low, d, [], weekly(412)).met).toBe(false);
    expect(judge(low, d, [], weekly(40))).toMatchObject({
      met: true,
      reason: expect.stringMatching(/0\.22× its median$/),
    });
    expect(judge(high, d, [], weekly(40)).met).toBe(false);
  });

  it("a higher sensitivity narrows the band", () => {
    const loose = judge(parseCondition("when violations unusual sensitivity low"), d, [], weekly(262));
    const tight = judge(parseCondition("when violations unusual sensitivity high"), d, [], weekly(262));
    expect([loose.met, tight.met]).toEqual([false, true]);
  });

  it("a day left out or a data gap is unknown: a digest posts to show it, never 'usual'", () => {
    const missing = judge(unusual, d, [], weekly(null));
    expect(missing).toMatchObject({ met: false, unknown: true });
    expect(missing.reason).toBe(
      "violations not judged yesterday (Tue Nov 24): the service sent no numbers for it",
    );
    const posted = evaluate(unusual, d, [], weekly(null));
    expect(posted.met).toBe(true);
    expect(posted.reason).toMatch(
      /^data incomplete \(violations not judged yesterday .*: .*\); posted so the gap is seen$/,
    );
    // Too little history is no gap in the data: a digest run is skipped and says why.
    const young = weekly(412);
    const v = evaluate(unusual, d, [], { ...young, points: young.points.slice(-22) });
    expect(v).toMatchObject({
      met: false,
      reason: expect.stringMatching(/only 3 of the last 8 Tuesdays known \(6 needed\)$/),
    });
    // Without its series (nothing fetched) it is unknown too.
    expect(judge(unusual, d, [], undefined)).toMatchObject({ met: false, unknown: true });
  });

  it("too little history is unknown: an alert reading it neither clears nor fires", () => {
    // Three Tuesdays known of the six needed, on a day that would be unusual with all of them.
    const young = weekly(412);
    const v = judge(unusual, d, [], { ...young, points: young.points.slice(-22) });
    expect(v).toMatchObject({
      met: false,
      unknown: true,
      reason: "violations not judged yesterday (Tue Nov 24): only 3 of the last 8 Tuesdays known (6 needed)",
    });
  });

  it("a gap elsewhere in the digest says nothing about the day judged", () => {
    const v = evaluate(unusual, gap(digest([5, 5], [3, 3])), [], weekly(182));
    expect(v.met).toBe(false);
  });
});

describe("snoozed episodes", () => {
  const at = (iso: string) => new Date(iso);
  const hour: Snooze = {
    kind: "hour",
    until: "2026-11-24T11:00:00.000Z",
    by: "U1",
    at: "2026-11-24T10:00:00.000Z",
  };
  const clears: Snooze = { kind: "clear", by: "U1", at: "2026-11-24T10:00:00.000Z" };

  it("a timed snooze posts nothing while it lasts, whatever the verdict", () => {
    expect(alertStep("firing", true, hour, at("2026-11-24T10:30:00Z"))).toMatchObject({
      post: null,
      state: "firing",
      snoozed: expect.stringMatching(/^snoozed until 2026-11-24 11:00 UTC$/),
    });
    expect(alertStep("firing", false, hour, at("2026-11-24T10:30:00Z"))).toMatchObject({
      post: null,
      state: "firing",
    });
  });

  it("when it ends, the alert behaves as just checked: it clears, or says once that it still holds", () => {
    expect(alertStep("firing", false, hour, at("2026-11-24T11:00:00Z"))).toEqual({
      state: "clear",
      post: "clear",
    });
    expect(alertStep("firing", true, hour, at("2026-11-24T11:00:00Z"))).toEqual({
      state: "firing",
      post: "resume",
    });
  });

  it("until it clears: silent while it holds, cleared as soon as it does not", () => {
    expect(alertStep("firing", true, clears, at("2026-12-24T10:00:00Z"))).toMatchObject({
      post: null,
      snoozed: "snoozed until it clears",
    });
    expect(alertStep("firing", false, clears, at("2026-11-24T10:05:00Z"))).toEqual({
      state: "clear",
      post: "clear",
    });
  });
});
