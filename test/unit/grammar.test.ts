import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../commands/grammar.ts";
import { tokenize } from "../../commands/tokenize.ts";

describe("tokenize", () => {
  it("keeps quoted filter values together, with typographic quotes and Slack escaping", () => {
    expect(tokenize('last30d asset:"payments / api" scanner:sast')).toEqual([
      { value: "last30d", raw: "last30d" },
      { key: "asset", value: "payments / api", raw: 'asset:"payments / api"' },
      { key: "scanner", value: "sast", raw: "scanner:sast" },
    ]);
    expect(tokenize("asset:“R&amp;D / api”")[0]).toMatchObject({ key: "asset", value: "R&D / api" });
  });
});

describe("parseCommand", () => {
  it.each([
    ["", { kind: "digest", range: "last7d", assets: [], scanners: [] }],
    ["last30d", { kind: "digest", range: "last30d" }],
    ["LAST90D", { kind: "digest", range: "last90d" }],
    ["2026-11-01..2026-11-15", { kind: "digest", range: "2026-11-01..2026-11-15" }],
    ["2026-11-15", { kind: "digest", range: "2026-11-15" }],
    ["thisweek scanner:sast scanner:sca", { kind: "digest", range: "thisweek", scanners: ["sast", "sca"] }],
    ['asset:"payments / api" lastmonth', { kind: "digest", range: "lastmonth", assets: ["payments / api"] }],
    ["yesterday", { kind: "digest", range: "yesterday" }],
    ["LastQuarter", { kind: "digest", range: "lastquarter" }],
    ["thisquarter scanner:sast", { kind: "digest", range: "thisquarter", scanners: ["sast"] }],
    ["export ytd", { kind: "export", range: "ytd" }],
    ["help", { kind: "help" }],
    ["Connect", { kind: "connect" }],
    ["status", { kind: "status" }],
    ["subscriptions", { kind: "subscriptions" }],
    ["pause sub_123", { kind: "pause", id: "sub_123" }],
    ["send abc", { kind: "send", id: "abc" }],
  ])("%j", (text, expected) => {
    expect(parseCommand(text)).toMatchObject(expected);
  });

  it("reads conditions, alerts, personal digests and export", () => {
    expect(parseCommand("subscribe daily when violations up 10%")).toMatchObject({
      kind: "subscribe",
      mode: "digest",
      condition: "when violations up 10%",
    });
    expect(parseCommand("subscribe daily when vulns up 10%")).toMatchObject({
      kind: "invalid",
      code: "bad_condition",
      message: expect.stringContaining("Conditions look like:"),
    });
    expect(parseCommand("alert when violations > 500")).toMatchObject({
      kind: "subscribe",
      mode: "alert",
      frequency: "hourly",
      time: "00:00",
      condition: "when violations > 500",
    });
    expect(parseCommand("alert daily")).toMatchObject({ kind: "invalid", code: "bad_condition" });
    expect(parseCommand("subscribe hourly mon")).toMatchObject({ kind: "invalid", code: "bad_syntax" });
    expect(parseCommand("subscribe me daily 08:00")).toMatchObject({ kind: "subscribeMe", time: "08:00" });
    expect(parseCommand("alert me daily when findings up 20%")).toMatchObject({
      kind: "subscribeMe",
      mode: "alert",
    });
    expect(parseCommand("export last7d")).toMatchObject({ kind: "export", range: "last7d" });
    expect(parseCommand("export last7d x")).toMatchObject({ kind: "invalid", code: "unknown_command" });
  });

  it("reads fix-rate alerts in percent, and says what is wrong with a bad one", () => {
    expect(parseCommand("alert when fixrate < 60%")).toMatchObject({
      kind: "subscribe",
      mode: "alert",
      frequency: "hourly",
      condition: "when fixrate < 60%",
    });
    expect(parseCommand("alert me daily 08:00 when fix rate above 75.5%")).toMatchObject({
      kind: "subscribeMe",
      mode: "alert",
      condition: "when fixrate > 75.5%",
    });
    expect(parseCommand("alert when fixrate < 140%")).toMatchObject({
      kind: "invalid",
      code: "bad_condition",
      message: expect.stringMatching(/^"140%" is not a fix rate: a rate is from 0% to 100%/),
    });
    expect(parseCommand("alert when fixrate down 10%")).toMatchObject({
      kind: "invalid",
      code: "bad_condition",
      message: expect.stringContaining("only be watched against a threshold in percent"),
    });
  });

  it("reads unusual conditions for alerts and digests, and says what is wrong with a bad one", () => {
    expect(parseCommand("alert when violations unusual")).toMatchObject({
      kind: "subscribe",
      mode: "alert",
      frequency: "hourly",
      condition: "when violations unusual",
    });
    expect(parseCommand("alert me daily 08:00 when fixes unusually low sensitivity high")).toMatchObject({
      kind: "subscribeMe",
      mode: "alert",
      condition: "when fixes unusually low sensitivity high",
    });
    expect(parseCommand("subscribe daily when findings unusual")).toMatchObject({
      kind: "subscribe",
      mode: "digest",
      condition: "when findings unusual",
    });
    expect(parseCommand("alert when violations unusually")).toMatchObject({
      kind: "invalid",
      code: "bad_condition",
      message: expect.stringMatching(
        /needs a direction[\s\S]*Conditions look like:[\s\S]*when violations unusual/,
      ),
    });
    expect(parseCommand("alert when violations unusual sensitivity 99")).toMatchObject({
      kind: "invalid",
      code: "bad_condition",
      message: expect.stringContaining("is not a sensitivity"),
    });
  });

  it("parses subscribe with defaults and every option", () => {
    expect(parseCommand("subscribe")).toMatchObject({
      kind: "subscribe",
      interactive: true,
      frequency: "weekly",
      days: ["mon"],
      time: "09:00",
      range: "last7d",
    });
    expect(
      parseCommand('subscribe weekly fri 8:30 America/New_York last30d asset:"payments / api"'),
    ).toMatchObject({
      kind: "subscribe",
      interactive: false,
      days: ["fri"],
      time: "08:30",
      tz: "America/New_York",
      range: "last30d",
      assets: ["payments / api"],
    });
    expect(parseCommand("subscribe daily 07:00 utc")).toMatchObject({
      frequency: "daily",
      days: [],
      tz: "UTC",
    });
    expect(parseCommand("subscribe daily 07:00 utc")).not.toHaveProperty("drivers");
    expect(parseCommand("subscribe daily nodrivers")).toMatchObject({ frequency: "daily", drivers: false });
    expect(parseCommand("subscribe daily no-drivers thread")).toMatchObject({
      drivers: false,
      style: "thread",
    });
    expect(parseCommand("subscribe daily mon")).toMatchObject({ kind: "invalid", code: "bad_syntax" });
    expect(parseCommand("subscribe weekly 25:00")).toMatchObject({ kind: "invalid", code: "bad_syntax" });
  });

  it("reads weekdays, monthly and quarterly schedules with their day of the month", () => {
    const sub = (text: string) => parseCommand(`subscribe ${text}`);
    expect(sub("weekdays 08:00 yesterday")).toMatchObject({
      kind: "subscribe",
      frequency: "weekdays",
      days: [],
      time: "08:00",
      range: "yesterday",
    });
    expect(sub("workdays 08:00")).toMatchObject({ frequency: "weekdays" });
    expect(sub("monthly 1st 09:00 lastmonth")).toMatchObject({
      frequency: "monthly",
      on: { kind: "day", day: 1 },
      time: "09:00",
      range: "lastmonth",
    });
    expect(sub("monthly 09:00")).toMatchObject({ frequency: "monthly", days: [] });
    expect(sub("monthly 09:00")).not.toHaveProperty("on");
    expect(sub("monthly 31 Europe/Berlin")).toMatchObject({
      on: { kind: "day", day: 31 },
      tz: "Europe/Berlin",
    });
    expect(sub("monthly first mon 09:00")).toMatchObject({
      on: { kind: "weekday", nth: 1, weekday: "mon" },
      days: [],
    });
    expect(sub("monthly last friday 16:30")).toMatchObject({
      on: { kind: "weekday", nth: "last", weekday: "fri" },
      time: "16:30",
    });
    expect(sub("monthly last workday 17:00")).toMatchObject({ on: { kind: "workday", which: "last" } });
    expect(sub("monthly last working day 17:00")).toMatchObject({ on: { kind: "workday", which: "last" } });
    expect(sub("quarterly 09:00 lastquarter")).toMatchObject({
      frequency: "quarterly",
      range: "lastquarter",
    });
    expect(sub("09:00 first mon quarterly")).toMatchObject({
      frequency: "quarterly",
      on: { kind: "weekday", nth: 1, weekday: "mon" },
    });
    expect(parseCommand("subscribe me monthly 15th")).toMatchObject({ kind: "subscribeMe", on: { day: 15 } });
    expect(parseCommand("alert monthly 1st when violations > 500")).toMatchObject({
      mode: "alert",
      frequency: "monthly",
    });
  });

  it("says what is wrong with a day that does not fit the frequency", () => {
    const problem = (text: string) => {
      const c = parseCommand(`subscribe ${text}`);
      return c.kind === "invalid" ? c.message : `parsed as ${c.kind}`;
    };
    expect(problem("monthly mon 09:00")).toMatch(/`monthly first mon`, `monthly last mon`/);
    expect(problem("weekly last fri")).toMatch(/goes with monthly or quarterly/);
    expect(problem("daily 1st")).toMatch(/goes with monthly or quarterly/);
    expect(problem("weekdays mon")).toMatch(/Monday to Friday; leave out the weekdays/);
    expect(problem("monthly 1st 15th")).toMatch(/one day of the month/);
    expect(problem("monthly 32nd")).toMatch(/can't read "32nd"/);
    expect(problem("monthly fifth mon")).toMatch(/first to fourth, or last/);
    // A bare number is a day only beside monthly or quarterly.
    expect(problem("daily 9")).toMatch(/can't read "9"/);
  });

  it("reads a subscription's chart style and the workspace's settings", () => {
    expect(parseCommand("subscribe daily chart:png")).toMatchObject({ kind: "subscribe", chart: "png" });
    expect(parseCommand("subscribe me daily 08:00 CHART:Off")).toMatchObject({
      kind: "subscribeMe",
      chart: "off",
    });
    expect(parseCommand("subscribe daily")).not.toHaveProperty("chart");
    expect(parseCommand("subscribe daily chart:svg")).toMatchObject({ kind: "invalid", code: "bad_syntax" });
    expect(parseCommand("last7d chart:png")).toMatchObject({ kind: "invalid" });
    expect(parseCommand("settings")).toEqual({ kind: "settings" });
    expect(parseCommand("settings chart:native")).toEqual({ kind: "settings", chart: "native" });
    expect(parseCommand("settings chart:default")).toEqual({ kind: "settings", chart: "default" });
    expect(parseCommand("settings chart:bar")).toMatchObject({ kind: "invalid", code: "bad_syntax" });
    expect(parseCommand("settings colour:red")).toMatchObject({ kind: "invalid", code: "bad_syntax" });
  });

  it.each([
    ["lst7d", "last7d"],
    ["hlep", "help"],
    ["subscibe", "subscribe"],
    ["conect", "connect"],
    ["lastquater", "lastquarter"],
    ["yesterdy", "yesterday"],
    ["banana", "help"],
  ])("suggests the closest command for %s", (text, suggestion) => {
    expect(parseCommand(text)).toMatchObject({ kind: "invalid", code: "unknown_command", suggestion });
  });

  it.each(["pause", "pause a b", "unsubscribe ../../x", "asset:", "color:red", "last7d last30d"])(
    "rejects %j with a message",
    (text) => {
      const c = parseCommand(text);
      expect(c.kind).toBe("invalid");
      if (c.kind === "invalid") expect(c.message.length).toBeGreaterThan(10);
    },
  );

  it("never throws and always returns a known kind (fuzz)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        const c = parseCommand(text);
        expect([
          "digest",
          "help",
          "connect",
          "disconnect",
          "status",
          "subscriptions",
          "subscribe",
          "unsubscribe",
          "pause",
          "resume",
          "send",
          "invalid",
        ]).toContain(c.kind);
      }),
      { numRuns: 2000 },
    );
  });
});
