import { describe, expect, it } from "vitest";
import type { InsightsResult } from "../../src/analytics/types.ts";
import { isAppError } from "../../src/errors.ts";
import { computeDigest, enumerateDays, parseRange } from "../../src/insights/index.ts";
import { alertStep } from "../../src/subscriptions/alerts.ts";
import {
  conditionText,
  evaluate,
  explainedMeasure,
  judge,
  parseCondition,
} from "../../src/subscriptions/conditions.ts";
import { validateFields } from "../../src/subscriptions/validate.ts";
import { numbersBlock } from "../../templates/digest-summary.ts";
import { makeDigest } from "./fixtures/digest-view.ts";

const range = parseRange("2026-11-01..2026-11-07", { now: new Date("2026-11-21T12:00:00Z"), tz: "UTC" });
const days = enumerateDays(range.from, range.to);

/** A digest computed as the product computes it, from a reply with these violations and fixes. */
function digestWith(violations: number, fixes: number) {
  const result: InsightsResult = {
    dailyMetric: days.map((d) => ({ timeStamp: `${d}T00:00:00`, findings: 10, violations: 1 })),
    dailyActivity: days.map((d) => ({ timeStamp: `${d}T00:00:00`, fixedViolations: 1, mergedViolations: 0 })),
    summary: {
      findings: { previous: 70, current: 70 },
      violations: { previous: violations, current: violations },
      fixes,
      mergedViolations: 0,
    },
  };
  return computeDigest(result, range);
}

const refusal = (text: string): string => {
  try {
    parseCondition(text);
  } catch (err) {
    if (isAppError(err) && err.code === "bad_condition") return err.message.split("\n")[0] ?? "";
    throw err;
  }
  throw new Error(`${text} was accepted`);
};

describe("fix-rate conditions: grammar", () => {
  it.each([
    ["when fixrate < 60%", { kind: "rate", metric: "fixrate", op: "<", pct: 60 }],
    ["fixrate > 80%", { kind: "rate", metric: "fixrate", op: ">", pct: 80 }],
    ["when fix rate below 33.5%", { kind: "rate", metric: "fixrate", op: "<", pct: 33.5 }],
    ["WHEN Fix-Rate above 5%", { kind: "rate", metric: "fixrate", op: ">", pct: 5 }],
    // The spelling of the reader's metric id reads the same.
    ["when fixRate < 60%", { kind: "rate", metric: "fixrate", op: "<", pct: 60 }],
    ["when fixrate > 0%", { kind: "rate", metric: "fixrate", op: ">", pct: 0 }],
    ["when fixrate < 100%", { kind: "rate", metric: "fixrate", op: "<", pct: 100 }],
  ])("%s", (text, expected) => {
    const c = parseCondition(text);
    expect(c).toEqual(expected);
    expect(parseCondition(conditionText(c))).toEqual(c);
  });

  it("stores one canonical form, lower case like every metric", () => {
    expect(conditionText(parseCondition("when fix rate below 60%"))).toBe("when fixrate < 60%");
    expect(conditionText(parseCondition("Fixrate > 12.5%"))).toBe("when fixrate > 12.5%");
  });

  it.each([
    ["when fixrate < 140%", /not a fix rate: a rate is from 0% to 100%/],
    ["when fixrate < -5%", /not a fix rate/],
    ["when fixrate < %", /not a fix rate/],
    ["when fixrate < 60", /percentage, said with its %: when fixrate < 60%/],
    ["when fixrate < 0.6", /percentage, said with its %/],
    ["when fixrate <", /percentage/],
    ["when fixrate < 0%", /never below 0%/],
    ["when fixrate > 100%", /never above 100%/],
    ["when fixrate down 10%", /only be watched against a threshold in percent/],
    ["when fixrate changed 5%", /only be watched against a threshold/],
    ["when fixrate rose 3", /only be watched against a threshold/],
    ["when fixrate unusually low", /only be watched against a threshold/],
    ["when fixrate", /only be watched against a threshold/],
    ["when fixrate < 60% daily", /don't understand "daily"/],
  ])("refuses %s with a clear reason", (text, reason) => {
    expect(refusal(text)).toMatch(reason);
  });

  it("the grammar shown with a refused condition names the fix-rate form", () => {
    expect(() => parseCondition("when fixrate < 140%")).toThrow(/when fixrate < 60%/);
  });

  it("an alert subscription keeps it in canonical form", () => {
    const out = validateFields(
      {
        channelId: "C0123",
        schedule: { kind: "hourly" },
        time: "00:00",
        tz: "UTC",
        mode: "alert",
        condition: "when fix rate below 60%",
      },
      new Date("2026-11-21T12:00:00Z"),
    );
    expect(out).toMatchObject({ mode: "alert", condition: "when fixrate < 60%" });
  });
});

describe("fix-rate conditions: the digest's own rate", () => {
  it("reads the rate the digest computes and shows, with the rate and the threshold in the reason", () => {
    // 30 fixes of 30 + 45 handled: 40 %.
    const d = digestWith(45, 30);
    expect(d.fixRate).toBeCloseTo(0.4);
    const shown = JSON.stringify(numbersBlock(d));
    expect(shown).toContain("*Fix rate*\\n40%");
    expect(judge(parseCondition("when fixrate < 60%"), d)).toEqual({
      met: true,
      reason: "fix rate 40% < 60%",
    });
    expect(judge(parseCondition("when fixrate > 60%"), d)).toEqual({
      met: false,
      reason: "fix rate 40% not > 60%",
    });
    expect(judge(parseCondition("when fixrate < 40%"), d).met).toBe(false);
  });

  it("compares the rate as shown (one decimal), so a message never says 60% < 60%", () => {
    // 0.59996: shown as 60%.
    const v = judge(parseCondition("when fixrate < 60%"), makeDigest({ fixRate: 0.59996 }));
    expect(v).toEqual({ met: false, reason: "fix rate 60% not < 60%" });
    const w = judge(parseCondition("when fixrate < 60%"), makeDigest({ fixRate: 0.5994 }));
    expect(w).toEqual({ met: true, reason: "fix rate 59.9% < 60%" });
  });

  it("no violations and no fixes in the period: unknown, never met", () => {
    const d = digestWith(0, 0);
    expect(d.fixRate).toBeNull();
    for (const text of ["when fixrate < 60%", "when fixrate > 10%"]) {
      const v = judge(parseCondition(text), d);
      expect(v.met).toBe(false);
      expect(v.unknown).toBe(true);
      expect(v.reason).toMatch(/^fix rate unknown: no violations and no fixes in the period/);
    }
  });

  it("an unknown rate neither fires nor clears an alert (the engine holds its state over it)", () => {
    // alert-run.ts skips a check whose verdict is unknown before stepping the state: the step is
    // never taken. What it would have been shows why: a firing alert would clear on no data.
    const v = judge(parseCondition("when fixrate < 60%"), digestWith(0, 0));
    expect(v.unknown).toBe(true);
    expect(alertStep("firing", v.met).post).toBe("clear");
  });

  it("a digest subscription with the condition skips a period with no rate, saying why", () => {
    const v = evaluate(parseCondition("when fixrate < 60%"), digestWith(0, 0));
    expect(v.met).toBe(false);
    expect(v.reason).toMatch(/fix rate unknown/);
  });

  it("the drivers of a fix-rate alert are its fixes", () => {
    expect(explainedMeasure(parseCondition("when fixrate < 60%"))).toBe("fixes");
    expect(explainedMeasure(parseCondition("when findings > 5"))).toBe("findings");
    expect(explainedMeasure(null)).toBe("violations");
  });
});
