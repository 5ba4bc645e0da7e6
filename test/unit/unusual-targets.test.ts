import { describe, expect, it } from "vitest";
import { DEFAULT_UNUSUAL_RULE, judgeDay } from "../../src/insights/unusual.ts";
import { weeklyAccount, withViolations } from "./fixtures/weekly.ts";

/**
 * The targets of the `unusual` condition at its default sensitivity, measured on 10,000 generated
 * accounts with weekly rhythms, trends and noise (fixtures/weekly.ts), 28 judged days each after
 * eight weeks of history:
 * - without a planted anomaly, at most 0.5 % of account-days are flagged;
 * - every planted day of at least 3× its weekday's norm is found, wherever that spike clears the
 *   floor with room (a norm of at least the floor: smaller counts never alert, by design).
 * The figures are printed: `npx vitest run test/unit/unusual-targets.test.ts --project http`.
 */

const ACCOUNTS = 10_000;
const JUDGED = 28;
const HISTORY = 7 * DEFAULT_UNUSUAL_RULE.weeks;
const LAST = "2026-11-22";

describe("unusual: the targets on 10,000 generated accounts", () => {
  it("flags at most 0.5 % of account-days without an anomaly, and finds every 3× spike", {
    timeout: 300_000,
  }, () => {
    let days = 0;
    let flagged = 0;
    let high = 0;
    let unknown = 0;
    let planted = 0;
    let found = 0;
    let belowFloor = 0;
    const missed: string[] = [];
    for (let a = 0; a < ACCOUNTS; a++) {
      const account = weeklyAccount(1_000 + a, LAST, HISTORY + JUDGED);
      const { points } = account;
      for (let i = HISTORY; i < HISTORY + JUDGED; i++) {
        const window = points.slice(i - HISTORY, i + 1);
        const day = (points[i] as (typeof points)[number]).day;
        const plain = judgeDay(window, "violations", day);
        days++;
        if (plain.kind === "unknown") unknown++;
        else if (plain.direction !== "within") {
          flagged++;
          if (plain.direction === "high") high++;
        }
        const norm = account.norm(i);
        if (norm < DEFAULT_UNUSUAL_RULE.floor) {
          belowFloor++;
          continue;
        }
        const spiked = [...window];
        spiked[HISTORY] = withViolations(window[HISTORY] as (typeof window)[number], Math.ceil(3 * norm));
        const verdict = judgeDay(spiked, "violations", day);
        planted++;
        if (verdict.kind === "judged" && verdict.direction === "high") found++;
        else if (missed.length < 5)
          missed.push(`account ${a} day ${day} norm ${norm.toFixed(1)}: ${JSON.stringify(verdict)}`);
      }
    }
    const rate = flagged / days;
    const report = {
      sensitivity: DEFAULT_UNUSUAL_RULE.sensitivity,
      accounts: ACCOUNTS,
      accountDays: days,
      flagged,
      flaggedHigh: high,
      flaggedLow: flagged - high,
      flaggedPct: Number((100 * rate).toFixed(3)),
      notJudged: unknown,
      planted,
      found,
      detectionPct: Number(((100 * found) / planted).toFixed(3)),
      plantsSkippedBelowFloor: belowFloor,
    };
    console.log(`unusual targets: ${JSON.stringify(report)}`);
    expect(missed).toEqual([]);
    expect(found).toBe(planted);
    expect(rate).toBeLessThanOrEqual(0.005);
    // The test judges what it says it judges: nearly every day has a verdict.
    expect(unknown / days).toBeLessThan(0.01);
    expect(planted).toBeGreaterThan(days / 2);
  });
});
