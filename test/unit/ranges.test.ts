import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  daysInclusive,
  formatRangeLabel,
  isoWeekday,
  isRangeToken,
  parseRange,
  RANGE_EXAMPLES,
  RangeParseError,
  TimezoneError,
} from "../../src/insights/index.ts";

const AKL = "Pacific/Auckland";
const LA = "America/Los_Angeles";
const KOL = "Asia/Kolkata";
const UTC = "UTC";

const at = (iso: string, tz: string) => ({ now: new Date(iso), tz });

describe("parseRange resolves every form", () => {
  // [what, text, now, tz, range "from..to", previous period "from..to", spec]
  const cases: [string, string, string, string, string, string, string][] = [
    [
      "empty = last7d",
      "",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-11-15..2026-11-21",
      "2026-11-08..2026-11-14",
      "last7d",
    ],
    [
      "last7d in UTC",
      "last7d",
      "2026-11-21T20:30:00Z",
      UTC,
      "2026-11-15..2026-11-21",
      "2026-11-08..2026-11-14",
      "last7d",
    ],
    // The same instant is already Sunday the 22nd in Auckland and in Kolkata, still Saturday in LA.
    [
      "last7d Auckland ahead",
      "last7d",
      "2026-11-21T20:30:00Z",
      AKL,
      "2026-11-16..2026-11-22",
      "2026-11-09..2026-11-15",
      "last7d",
    ],
    [
      "last7d LA behind",
      "last7d",
      "2026-11-21T20:30:00Z",
      LA,
      "2026-11-15..2026-11-21",
      "2026-11-08..2026-11-14",
      "last7d",
    ],
    [
      "last7d Kolkata",
      "last7d",
      "2026-11-21T20:30:00Z",
      KOL,
      "2026-11-16..2026-11-22",
      "2026-11-09..2026-11-15",
      "last7d",
    ],
    [
      "last14d",
      "last14d",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-11-08..2026-11-21",
      "2026-10-25..2026-11-07",
      "last14d",
    ],
    [
      "last30d",
      "last30d",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-10-23..2026-11-21",
      "2026-09-23..2026-10-22",
      "last30d",
    ],
    [
      "last90d",
      "last90d",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-08-24..2026-11-21",
      "2026-05-26..2026-08-23",
      "last90d",
    ],
    [
      "last1d is today",
      "last1d",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-11-21..2026-11-21",
      "2026-11-20..2026-11-20",
      "last1d",
    ],
    [
      "last365d over a leap day",
      "last365d",
      "2028-12-31T12:00:00Z",
      UTC,
      "2028-01-02..2028-12-31",
      "2027-01-02..2028-01-01",
      "last365d",
    ],
    [
      "upper case and spaces",
      "  LAST30D ",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-10-23..2026-11-21",
      "2026-09-23..2026-10-22",
      "last30d",
    ],
    [
      "leading zero normalised",
      "last07d",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-11-15..2026-11-21",
      "2026-11-08..2026-11-14",
      "last7d",
    ],
    // DST ends in LA on 2026-11-01: 23:30 PST is still the 1st there, already the 2nd in UTC.
    [
      "last7d across LA fall-back",
      "last7d",
      "2026-11-02T07:30:00Z",
      LA,
      "2026-10-26..2026-11-01",
      "2026-10-19..2026-10-25",
      "last7d",
    ],
    // DST starts in LA on 2026-03-08 (a Sunday): thisweek is Monday..Sunday of that week.
    [
      "thisweek on LA spring-forward Sunday",
      "thisweek",
      "2026-03-08T10:30:00Z",
      LA,
      "2026-03-02..2026-03-08",
      "2026-02-23..2026-03-01",
      "thisweek",
    ],
    // Auckland leaves DST on 2026-04-05 (Sunday); 02:30 happens twice that night.
    [
      "lastweek on Auckland DST-end Sunday",
      "lastweek",
      "2026-04-04T13:30:00Z",
      AKL,
      "2026-03-23..2026-03-29",
      "2026-03-16..2026-03-22",
      "lastweek",
    ],
    [
      "thisweek on Auckland DST-end Sunday",
      "thisweek",
      "2026-04-04T14:30:00Z",
      AKL,
      "2026-03-30..2026-04-05",
      "2026-03-23..2026-03-29",
      "thisweek",
    ],
    [
      "thisweek Auckland DST start",
      "thisweek",
      "2026-09-26T14:30:00Z",
      AKL,
      "2026-09-21..2026-09-27",
      "2026-09-14..2026-09-20",
      "thisweek",
    ],
    [
      "lastweek on a Monday",
      "lastweek",
      "2026-11-23T00:00:00Z",
      UTC,
      "2026-11-16..2026-11-22",
      "2026-11-09..2026-11-15",
      "lastweek",
    ],
    [
      "thisweek on a Monday is one day",
      "thisweek",
      "2026-11-23T00:00:00Z",
      UTC,
      "2026-11-23..2026-11-23",
      "2026-11-22..2026-11-22",
      "thisweek",
    ],
    [
      "lastweek on a Sunday",
      "lastweek",
      "2026-11-22T23:59:59Z",
      UTC,
      "2026-11-09..2026-11-15",
      "2026-11-02..2026-11-08",
      "lastweek",
    ],
    // Still Sunday in LA while UTC is already Monday: lastweek differs by a week.
    [
      "lastweek Sunday night in LA",
      "lastweek",
      "2026-11-23T03:00:00Z",
      LA,
      "2026-11-09..2026-11-15",
      "2026-11-02..2026-11-08",
      "lastweek",
    ],
    [
      "thisweek across the year end",
      "thisweek",
      "2027-01-02T12:00:00Z",
      UTC,
      "2026-12-28..2027-01-02",
      "2026-12-22..2026-12-27",
      "thisweek",
    ],
    [
      "thismonth on the 1st",
      "thismonth",
      "2026-12-01T10:00:00Z",
      UTC,
      "2026-12-01..2026-12-01",
      "2026-11-30..2026-11-30",
      "thismonth",
    ],
    // Kolkata is already in December while UTC is still on Nov 30.
    [
      "thismonth Kolkata on the 1st",
      "thismonth",
      "2026-11-30T19:00:00Z",
      KOL,
      "2026-12-01..2026-12-01",
      "2026-11-30..2026-11-30",
      "thismonth",
    ],
    [
      "thismonth UTC same instant",
      "thismonth",
      "2026-11-30T19:00:00Z",
      UTC,
      "2026-11-01..2026-11-30",
      "2026-10-02..2026-10-31",
      "thismonth",
    ],
    [
      "lastmonth in January",
      "lastmonth",
      "2027-01-15T12:00:00Z",
      UTC,
      "2026-12-01..2026-12-31",
      "2026-10-31..2026-11-30",
      "lastmonth",
    ],
    // February is compared with the 28 days before it, not with all of January.
    [
      "lastmonth February",
      "lastmonth",
      "2026-03-10T12:00:00Z",
      UTC,
      "2026-02-01..2026-02-28",
      "2026-01-04..2026-01-31",
      "lastmonth",
    ],
    [
      "lastmonth leap February",
      "lastmonth",
      "2028-03-10T12:00:00Z",
      UTC,
      "2028-02-01..2028-02-29",
      "2028-01-03..2028-01-31",
      "lastmonth",
    ],
    [
      "thismonth on leap day",
      "thismonth",
      "2028-02-29T12:00:00Z",
      UTC,
      "2028-02-01..2028-02-29",
      "2028-01-03..2028-01-31",
      "thismonth",
    ],
    [
      "single leap day",
      "2028-02-29",
      "2028-03-01T00:00:00Z",
      UTC,
      "2028-02-29..2028-02-29",
      "2028-02-28..2028-02-28",
      "2028-02-29",
    ],
    [
      "explicit range",
      "2026-11-01..2026-11-15",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-11-01..2026-11-15",
      "2026-10-17..2026-10-31",
      "2026-11-01..2026-11-15",
    ],
    [
      "range with spaces",
      "2026-11-01 .. 2026-11-15",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-11-01..2026-11-15",
      "2026-10-17..2026-10-31",
      "2026-11-01..2026-11-15",
    ],
    [
      "range ending today",
      "2026-11-20..2026-11-22",
      "2026-11-21T20:30:00Z",
      AKL,
      "2026-11-20..2026-11-22",
      "2026-11-17..2026-11-19",
      "2026-11-20..2026-11-22",
    ],
    [
      "366-day leap year range",
      "2028-01-01..2028-12-31",
      "2029-01-01T12:00:00Z",
      UTC,
      "2028-01-01..2028-12-31",
      "2026-12-31..2027-12-31",
      "2028-01-01..2028-12-31",
    ],
    [
      "yesterday: the whole day before today",
      "yesterday",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-11-20..2026-11-20",
      "2026-11-19..2026-11-19",
      "yesterday",
    ],
    // 12:00Z on Dec 31 is already 01:00 on New Year's Day in Auckland.
    [
      "yesterday across a year end, in the zone's calendar",
      "yesterday",
      "2026-12-31T12:00:00Z",
      AKL,
      "2026-12-31..2026-12-31",
      "2026-12-30..2026-12-30",
      "yesterday",
    ],
    [
      "thisquarter: the quarter's first day to today, against as many days before it",
      "thisquarter",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-10-01..2026-11-21",
      "2026-08-10..2026-09-30",
      "thisquarter",
    ],
    [
      "lastquarter: the whole previous calendar quarter",
      "lastquarter",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-07-01..2026-09-30",
      "2026-03-31..2026-06-30",
      "lastquarter",
    ],
    // 12:00Z on Jan 1 is 04:00 that day in LA: last quarter is the one that just ended.
    [
      "lastquarter on New Year's Day: Q4 of the year before",
      "lastquarter",
      "2027-01-01T12:00:00Z",
      LA,
      "2026-10-01..2026-12-31",
      "2026-07-01..2026-09-30",
      "lastquarter",
    ],
    [
      "lastquarter of a leap year's Q1: 91 days",
      "lastquarter",
      "2028-04-15T12:00:00Z",
      UTC,
      "2028-01-01..2028-03-31",
      "2027-10-02..2027-12-31",
      "lastquarter",
    ],
    [
      "thisquarter on its first day: that day",
      "thisquarter",
      "2027-04-01T12:00:00Z",
      UTC,
      "2027-04-01..2027-04-01",
      "2027-03-31..2027-03-31",
      "thisquarter",
    ],
    [
      "ytd: January 1st to today",
      "ytd",
      "2026-11-21T12:00:00Z",
      UTC,
      "2026-01-01..2026-11-21",
      "2025-02-10..2025-12-31",
      "ytd",
    ],
    [
      "ytd on a leap year's last day: 366 days, the longest range",
      "ytd",
      "2028-12-31T12:00:00Z",
      UTC,
      "2028-01-01..2028-12-31",
      "2026-12-31..2027-12-31",
      "ytd",
    ],
    [
      "ytd on New Year's Day: that day",
      "YTD",
      "2027-01-01T12:00:00Z",
      UTC,
      "2027-01-01..2027-01-01",
      "2026-12-31..2026-12-31",
      "ytd",
    ],
    [
      "first allowed day",
      "2000-01-01",
      "2026-11-21T12:00:00Z",
      UTC,
      "2000-01-01..2000-01-01",
      "1999-12-31..1999-12-31",
      "2000-01-01",
    ],
  ];

  it.each(cases)("%s", (_what, text, now, tz, range, previous, spec) => {
    const [from = "", to = ""] = range.split("..");
    const [previousFrom = "", previousTo = ""] = previous.split("..");
    const r = parseRange(text, at(now, tz));
    expect(r).toMatchObject({ from, to, previousFrom, previousTo, spec, tz });
    expect(r.days).toBe(daysInclusive(from, to));
    expect(daysInclusive(previousFrom, previousTo)).toBe(r.days);
    expect(parseRange(r.spec, at(now, tz))).toEqual(r);
  });

  it("labels show the year once within a year and both years across one", () => {
    const r = parseRange("last7d", at("2026-11-21T12:00:00Z", UTC));
    expect(r.label).toBe("Nov 15 – Nov 21, 2026");
    expect(r.previousLabel).toBe("Nov 8 – Nov 14, 2026");
    const y = parseRange("last7d", at("2027-01-02T12:00:00Z", UTC));
    expect(y.label).toBe("Dec 27, 2026 – Jan 2, 2027");
    expect(y.previousLabel).toBe("Dec 20 – Dec 26, 2026");
    expect(parseRange("2028-02-29", at("2028-03-01T00:00:00Z", UTC)).label).toBe("Feb 29, 2028");
  });
});

describe("formatRangeLabel", () => {
  it.each([
    ["2026-11-15", "2026-11-21", "Nov 15 – Nov 21, 2026"],
    ["2026-10-25", "2026-11-07", "Oct 25 – Nov 7, 2026"],
    ["2026-12-28", "2027-01-03", "Dec 28, 2026 – Jan 3, 2027"],
    ["2026-01-01", "2026-01-01", "Jan 1, 2026"],
  ])("%s..%s → %s", (from, to, label) => {
    expect(formatRangeLabel(from, to)).toBe(label);
  });
});

describe("parseRange errors", () => {
  const now = at("2026-11-21T12:00:00Z", UTC);
  // [text, reason, fragment of the problem sentence]
  const cases: [string, string, string][] = [
    ["garbage", "not_a_range", '"garbage" is not a date range'],
    ["lastxd", "not_a_range", "not a date range"],
    ["last 7 days", "not_a_range", "not a date range"],
    ["2026-11-01...2026-11-05", "not_a_range", "not a date range"],
    ["last0d", "bad_count", "from 1 to 365"],
    ["last366d", "bad_count", "from 1 to 365"],
    ["last99999999999999999999d", "bad_count", "from 1 to 365"],
    ["2026-02-30", "bad_date", "2026-02-30 is not a real calendar date"],
    ["2026-13-01", "bad_date", "2026-13-01 is not a real calendar date"],
    ["2027-02-29", "bad_date", "2027-02-29 is not a real calendar date"],
    ["2026-11-01..2026-02-30", "bad_date", "2026-02-30 is not a real calendar date"],
    ["2026-11-15..2026-11-01", "inverted", "ends before it starts"],
    ["2025-01-01..2026-01-02", "too_long", "is 367 days long; the limit is 366"],
    ["1999-12-31", "too_early", "Data starts at 2000-01-01"],
    ["1999-12-31..2000-01-05", "too_early", "1999-12-31 is earlier"],
    ["2026-11-22", "in_future", "2026-11-22 is in the future (today is 2026-11-21 in UTC)"],
    ["2026-11-20..2026-11-22", "in_future", "in the future"],
    ["9999-12-31", "in_future", "in the future"],
  ];

  it.each(cases)("%s → %s", (text, reason, fragment) => {
    let caught: unknown;
    try {
      parseRange(text, now);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RangeParseError);
    const err = caught as RangeParseError;
    expect(err.code).toBe("bad_range");
    expect(err.reason).toBe(reason);
    expect(err.input).toBe(text);
    expect(err.message).toContain(fragment);
    // Every message teaches the grammar, with examples that would work today.
    for (const form of [
      "`last7d`",
      "`last30d`",
      "`last45d`",
      "`thisweek`",
      "`lastweek`",
      "`thismonth`",
      "`lastmonth`",
    ]) {
      expect(err.message).toContain(form);
    }
    expect(err.message).toContain("`2026-11-06..2026-11-20`");
    expect(err.message).toContain("`2026-11-20`");
    expect(err.message).toContain("Accepted:");
  });

  it("clips long garbage echoed back", () => {
    const text = "x".repeat(500);
    expect(() => parseRange(text, now)).toThrow(/"x{39}…" is not a date range/);
  });

  it("the same day is future in LA and allowed in Auckland", () => {
    const instant = "2026-11-21T20:30:00Z";
    expect(() => parseRange("2026-11-22", at(instant, LA))).toThrow(RangeParseError);
    expect(parseRange("2026-11-22", at(instant, AKL)).days).toBe(1);
  });

  it.each(["Mars/Base", "", "America/Nowhere"])("timezone %j → bad_timezone", (tz) => {
    let caught: unknown;
    try {
      parseRange("last7d", { now: new Date("2026-11-21T12:00:00Z"), tz });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TimezoneError);
    expect((caught as TimezoneError).code).toBe("bad_timezone");
    expect((caught as TimezoneError).message).toContain("IANA");
  });

  it("an invalid Date is a programming error, not a user error", () => {
    expect(() => parseRange("last7d", { now: new Date("nope"), tz: UTC })).toThrow(TypeError);
  });
});

describe("isRangeToken", () => {
  it.each([
    ["last7d", true],
    ["LAST90D", true],
    ["last0d", true],
    ["last366d", true],
    ["thisweek", true],
    ["lastmonth", true],
    ["2026-11-15", true],
    ["2026-02-30", true],
    ["2026-11-01..2026-11-15", true],
    ["", false],
    ["help", false],
    ["subscribe", false],
    ["last7", false],
    ["7d", false],
    ["asset:api", false],
    ["2026-11", false],
    ["2026-11-01..", false],
  ])("%j → %s", (word, expected) => {
    expect(isRangeToken(word)).toBe(expected);
  });
});

describe("RANGE_EXAMPLES", () => {
  it("every example parses", () => {
    const ctx = at("2026-11-21T12:00:00Z", UTC);
    const texts = RANGE_EXAMPLES.flatMap((e) => e.text.split(", "));
    expect(texts).toEqual(
      expect.arrayContaining(["last7d", "thisweek", "lastmonth", "2026-11-01..2026-11-15", "2026-11-15"]),
    );
    for (const text of texts) expect(parseRange(text, ctx).spec).toBe(text);
  });
});

describe("range properties", () => {
  const zones = [AKL, LA, KOL, UTC];
  // 2001 .. 2035, so every lastNd stays after 2000-01-01.
  const instant = fc
    .integer({ min: Date.UTC(2001, 1, 1), max: Date.UTC(2035, 0, 1) })
    .map((ms) => new Date(ms));

  it("lastNd ends today, spans N days, and the previous period adjoins it", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), fc.integer({ min: 1, max: 365 }), (now, tz, n) => {
        const r = parseRange(`last${n}d`, { now, tz });
        const today = parseRange("last1d", { now, tz }).to;
        expect(r.to).toBe(today);
        expect(r.days).toBe(n);
        expect(addDays(r.previousTo, 1)).toBe(r.from);
        expect(daysInclusive(r.previousFrom, r.previousTo)).toBe(n);
      }),
      { numRuns: 300 },
    );
  });

  it("weeks start on Monday and months on the 1st", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), (now, tz) => {
        const ctx = { now, tz };
        const tw = parseRange("thisweek", ctx);
        const lw = parseRange("lastweek", ctx);
        const tm = parseRange("thismonth", ctx);
        const lm = parseRange("lastmonth", ctx);
        expect(isoWeekday(tw.from)).toBe(1);
        expect(isoWeekday(lw.from)).toBe(1);
        expect(isoWeekday(lw.to)).toBe(7);
        expect(addDays(lw.to, 1)).toBe(tw.from);
        expect(tm.from.endsWith("-01")).toBe(true);
        expect(lm.from.endsWith("-01")).toBe(true);
        expect(addDays(lm.to, 1)).toBe(tm.from);
        expect(lm.previousTo).toBe(addDays(lm.from, -1));
        expect(daysInclusive(lm.previousFrom, lm.previousTo)).toBe(lm.days);
      }),
      { numRuns: 300 },
    );
  });

  it("quarters start on Jan, Apr, Jul or Oct 1st and adjoin; ytd starts on Jan 1st; yesterday ends before today", () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...zones), (now, tz) => {
        const ctx = { now, tz };
        const today = parseRange("last1d", ctx).to;
        const tq = parseRange("thisquarter", ctx);
        const lq = parseRange("lastquarter", ctx);
        const ytd = parseRange("ytd", ctx);
        const y = parseRange("yesterday", ctx);
        for (const q of [tq, lq]) expect(["01", "04", "07", "10"]).toContain(q.from.slice(5, 7));
        expect(tq.from.endsWith("-01")).toBe(true);
        expect(tq.to).toBe(today);
        expect(addDays(lq.to, 1)).toBe(tq.from);
        expect([90, 91, 92]).toContain(lq.days);
        expect(ytd.from).toBe(`${today.slice(0, 4)}-01-01`);
        expect(ytd.to).toBe(today);
        expect(y.from).toBe(addDays(today, -1));
        expect(y.days).toBe(1);
      }),
      { numRuns: 300 },
    );
  });
});
