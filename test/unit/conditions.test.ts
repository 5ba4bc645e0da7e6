import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAppError } from "../../src/errors.ts";
import { alertStep } from "../../src/subscriptions/alerts.ts";
import { conditionText, evaluate, parseCondition } from "../../src/subscriptions/conditions.ts";
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
