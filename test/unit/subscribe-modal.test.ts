import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findElement } from "../../sandbox/slack/index.ts";
import type { FilterOption } from "../../src/analytics/types.ts";
import { checkView } from "../../src/blockkit/limits.ts";
import { AppError } from "../../src/errors.ts";
import { BLOCK, SUBSCRIBE_FIELD as F } from "../../src/ids.ts";
import {
  decodeMeta,
  defaultForm,
  encodeMeta,
  formFromValues,
  labelsFromValues,
  previewOf,
  scheduleErrors,
  scheduleOf,
  signature,
} from "../../src/slack/subscriptions/modal-state.ts";
import { type SubscribeForm, subscribeModal } from "../../templates/subscribe-modal.ts";
import { runTime } from "../../templates/subscribe-times.ts";

const options = (n: number, name = (i: number) => `team ${i % 7} / service-${i}`): FilterOption[] =>
  Array.from({ length: n }, (_, i) => ({ value: `id-${i}`, displayValue: name(i) }));

const form = (over: Partial<SubscribeForm> = {}): SubscribeForm => ({
  ...defaultForm("Europe/Berlin", "C0GENERAL"),
  ...over,
});

const modal = (over: Partial<Parameters<typeof subscribeModal>[0]> = {}) =>
  subscribeModal({
    form: form(),
    assets: options(20),
    scanners: options(5, (i) => `scanner ${i}`),
    preview: { runs: [new Date("2026-11-02T08:00:00Z")] },
    privateMetadata: "{}",
    ...over,
  });

const blockIds = (v: { blocks: unknown[] }) => v.blocks.map((b) => (b as { block_id?: string }).block_id);

describe("subscribeModal", () => {
  it("weekly shows the day boxes and the time; daily drops the days; cron swaps both for its expression", () => {
    const weekly = modal();
    expect(checkView(weekly)).toEqual([]);
    expect(blockIds(weekly)).toEqual(
      expect.arrayContaining([
        F.channel,
        F.frequency,
        F.weekday,
        F.time,
        F.timezone,
        F.range,
        F.assets,
        F.scanners,
        BLOCK.subscribePreview,
      ]),
    );
    expect(findElement(weekly.blocks, F.weekday)?.element.initial_options).toEqual([
      { text: { type: "plain_text", text: "Monday", emoji: true }, value: "mon" },
    ]);
    const daily = modal({ form: form({ frequency: "daily" }) });
    expect(blockIds(daily)).not.toContain(F.weekday);
    expect(blockIds(daily)).toContain(F.time);
    const cron = modal({ form: form({ frequency: "cron", cron: "0 9 * * 1-5" }) });
    expect(blockIds(cron)).not.toContain(F.weekday);
    expect(blockIds(cron)).not.toContain(F.time);
    expect(findElement(cron.blocks, F.cron)?.element.initial_value).toBe("0 9 * * 1-5");
    for (const v of [daily, cron]) expect(checkView(v)).toEqual([]);
  });

  it("monthly and quarterly show a select of the day (68 options in three groups), weekdays neither days nor day", () => {
    const monthly = modal({ form: form({ frequency: "monthly", on: "last-workday" }) });
    expect(checkView(monthly)).toEqual([]);
    expect(blockIds(monthly)).not.toContain(F.weekday);
    expect(blockIds(monthly)).toEqual(expect.arrayContaining([F.monthDay, F.time]));
    const select = findElement(monthly.blocks, F.monthDay)?.element as {
      option_groups: { options: { value: string }[] }[];
      initial_option?: { value: string; text: { text: string } };
    };
    expect(select.option_groups.map((g) => g.options.length)).toEqual([31, 35, 2]);
    expect(select.initial_option).toMatchObject({
      value: "last-workday",
      text: { text: "Last working day" },
    });
    const quarterly = modal({ form: form({ frequency: "quarterly", on: "first-mon" }) });
    expect(checkView(quarterly)).toEqual([]);
    expect(findElement(quarterly.blocks, F.monthDay)?.element).toMatchObject({
      initial_option: { value: "first-mon" },
    });
    const weekdays = modal({ form: form({ frequency: "weekdays" }) });
    expect(checkView(weekdays)).toEqual([]);
    expect(blockIds(weekdays)).not.toContain(F.weekday);
    expect(blockIds(weekdays)).not.toContain(F.monthDay);
    expect(blockIds(weekdays)).toContain(F.time);
  });

  it("every schedule input dispatches its changes, so the preview can follow, and so does the channel, to be checked", () => {
    const dispatching = modal().blocks.filter((b) => (b as { dispatch_action?: boolean }).dispatch_action);
    expect(dispatching.map((b) => (b as { block_id: string }).block_id)).toEqual([
      F.channel,
      F.frequency,
      F.weekday,
      F.time,
      F.timezone,
    ]);
  });

  it("up to 100 filter choices are a static multi select with the chosen ones pre-selected; more are type-ahead", () => {
    const small = modal({ form: form({ assetIds: ["id-3", "gone"] }) });
    const menu = findElement(small.blocks, F.assets)?.element;
    expect(menu?.type).toBe("multi_static_select");
    expect(menu?.initial_options).toEqual([
      { text: { type: "plain_text", text: "team 3 / service-3", emoji: true }, value: "id-3" },
    ]);
    const big = modal({ assets: options(5_000), form: form({ assetIds: ["id-4321"] }) });
    const ext = findElement(big.blocks, F.assets)?.element;
    expect(ext?.type).toBe("multi_external_select");
    expect(ext?.initial_options).toEqual([
      { text: { type: "plain_text", text: "team 2 / service-4321", emoji: true }, value: "id-4321" },
    ]);
    expect(checkView(big)).toEqual([]);
  });

  it("without filter lists it says filters are unavailable rather than showing empty menus", () => {
    const v = modal({ assets: null, scanners: null });
    expect(blockIds(v)).not.toContain(F.assets);
    expect(JSON.stringify(v)).toContain("not available");
    expect(checkView(v)).toEqual([]);
  });

  it("the preview lists the runs in the form's zone, or why there are none", () => {
    const runs = [new Date("2026-03-29T00:30:00Z"), new Date("2026-04-05T00:30:00Z")];
    const ok = modal({ form: form({ tz: "Europe/Berlin" }), preview: { runs } });
    const text = JSON.stringify(ok.blocks.at(-1));
    expect(text).toContain("Next 2 runs");
    expect(text).toContain(runTime(runs[0] as Date, "Europe/Berlin"));
    const bad = modal({ preview: { error: "<!channel> is not a valid cron expression" } });
    expect(JSON.stringify(bad.blocks.at(-1))).toContain("&lt;!channel&gt;");
  });

  it("an edited subscription says so; oversized metadata is refused rather than cut", () => {
    const v = modal({ editing: true });
    expect(v.title.text).toBe("Edit subscription");
    expect(v.submit.text).toBe("Save");
    expect(() => modal({ privateMetadata: "x".repeat(3001) })).toThrow(AppError);
  });

  it("a filter list with no choice Slack can carry gets no empty menu (found by the property below)", () => {
    const v = modal({ assets: [{ value: "*", displayValue: "" }], form: form({}) });
    expect(checkView(v)).toEqual([]);
  });

  it("hostile filter names, zones and ranges stay within Block Kit's limits", () => {
    const name = fc.string({ unit: "grapheme", maxLength: 300 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ value: fc.string({ minLength: 1, maxLength: 120 }), displayValue: name }), {
          maxLength: 150,
        }),
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 200 }),
        (assets, tz, range, cron) => {
          const v = modal({
            assets,
            form: form({
              tz,
              range,
              cron,
              frequency: "cron",
              assetIds: assets.slice(0, 3).map((a) => a.value),
            }),
            preview: { error: cron },
          });
          expect(checkView(v)).toEqual([]);
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe("modal state", () => {
  const values = {
    [F.channel]: { [F.channel]: { selected_conversation: "C0SECURITY" } },
    [F.frequency]: { [F.frequency]: { selected_option: { value: "daily" } } },
    [F.time]: { [F.time]: { selected_time: "07:45" } },
    [F.timezone]: { [F.timezone]: { value: " Asia/Tokyo " } },
    [F.range]: { [F.range]: { selected_option: { value: "last30d" } } },
    [F.assets]: { [F.assets]: { selected_options: [{ value: "id-1", text: { text: "payments / api" } }] } },
  };

  it("reads the inputs; inputs this frequency hides keep what the metadata remembered", () => {
    const f = formFromValues(values, { days: ["tue", "fri"], on: "last-fri", cron: "0 8 * * *" }, "UTC");
    expect(f).toEqual({
      channelId: "C0SECURITY",
      frequency: "daily",
      days: ["tue", "fri"],
      on: "last-fri",
      cron: "0 8 * * *",
      time: "07:45",
      tz: "Asia/Tokyo",
      range: "last30d",
      assetIds: ["id-1"],
      scannerIds: [],
      condition: "",
      mode: "digest",
      style: "post",
      chart: "default",
    });
    expect(labelsFromValues(values)).toEqual(["payments / api"]);
    const png = { ...values, [F.chart]: { [F.chart]: { selected_option: { value: "png" } } } };
    expect(formFromValues(png, {}, "UTC").chart).toBe("png");
    const junk = { ...values, [F.chart]: { [F.chart]: { selected_option: { value: "svg" } } } };
    expect(formFromValues(junk, {}, "UTC").chart).toBe("default");
    // A modal drawn without filter menus keeps the filters it was opened with.
    const { [F.assets]: _menu, ...noMenus } = values;
    const kept = formFromValues(noMenus, { assets: ["id-9"], scanners: ["s-1"] }, "UTC");
    expect([kept.assetIds, kept.scannerIds]).toEqual([["id-9"], ["s-1"]]);
    expect(scheduleOf(f)).toEqual({ kind: "daily" });
  });

  it("reads the day of a monthly or quarterly schedule, and the working-day frequency", () => {
    const pick = (frequency: string, on?: string) => ({
      ...values,
      [F.frequency]: { [F.frequency]: { selected_option: { value: frequency } } },
      ...(on ? { [F.monthDay]: { [F.monthDay]: { selected_option: { value: on } } } } : {}),
    });
    const m = formFromValues(pick("monthly", "second-tue"), {}, "UTC");
    expect(m).toMatchObject({ frequency: "monthly", on: "second-tue" });
    expect(scheduleOf(m)).toEqual({ kind: "monthly", on: { kind: "weekday", nth: 2, weekday: "tue" } });
    expect(scheduleOf(formFromValues(pick("quarterly", "1"), {}, "UTC"))).toEqual({
      kind: "quarterly",
      on: { kind: "day", day: 1 },
    });
    expect(scheduleOf(formFromValues(pick("weekdays"), {}, "UTC"))).toEqual({ kind: "weekdays" });
    // Switching to monthly restores the day the metadata remembered; none chosen is an error on the select.
    expect(formFromValues(pick("monthly"), { on: "15" }, "UTC").on).toBe("15");
    const cleared = formFromValues({ ...pick("monthly"), [F.monthDay]: { [F.monthDay]: {} } }, {}, "UTC");
    expect(scheduleErrors(cleared)).toHaveProperty(F.monthDay);
    expect(formFromValues(pick("fortnightly"), {}, "UTC").frequency).toBe("weekly");
  });

  it("metadata round-trips and junk decodes to nothing", () => {
    const m = {
      origin: "C1",
      edit: "abc12345",
      home: true,
      shown: "weekly|mon|09:00|UTC",
      days: ["mon" as const],
    };
    expect(decodeMeta(encodeMeta(m))).toEqual(m);
    expect(decodeMeta("{not json")).toEqual({});
    expect(decodeMeta(undefined)).toEqual({});
  });

  it("the signature changes with anything that moves a run, and only then", () => {
    const base = form();
    expect(signature(base)).toBe(signature({ ...base, range: "last30d", assetIds: ["x"] }));
    for (const over of [
      { time: "09:30" },
      { tz: "UTC" },
      { days: ["tue" as const] },
      { frequency: "daily" as const },
    ])
      expect(signature({ ...base, ...over })).not.toBe(signature(base));
    const monthly = form({ frequency: "monthly", on: "1" });
    expect(signature({ ...monthly, on: "last-workday" })).not.toBe(signature(monthly));
    expect(signature({ ...monthly, frequency: "quarterly" })).not.toBe(signature(monthly));
    // A cron schedule ignores the time input.
    const cron = form({ frequency: "cron", cron: "0 9 * * *" });
    expect(signature({ ...cron, time: "10:00" })).toBe(signature(cron));
  });

  it("names the input of each schedule problem", () => {
    expect(scheduleErrors(form({ days: [] }))).toHaveProperty(F.weekday);
    expect(scheduleErrors(form({ frequency: "cron", cron: "0 9 * *" }))).toHaveProperty(F.cron);
    expect(scheduleErrors(form({ time: "9am" }))).toHaveProperty(F.time);
    expect(scheduleErrors(form({ tz: "Mars/Phobos" }))[F.timezone]).toContain("Mars/Phobos");
    expect(scheduleErrors(form())).toEqual({});
  });

  it("previews across DST the way the scheduler fires: Berlin's spring-forward Sunday at 02:30 runs at 03:30", () => {
    const f = form({ frequency: "weekly", days: ["sun"], time: "02:30", tz: "Europe/Berlin" });
    const preview = previewOf(f, new Date("2026-03-20T00:00:00Z"), 3);
    if (!("runs" in preview)) throw new Error(preview.error);
    expect(preview.runs.map((d) => runTime(d, "Europe/Berlin"))).toEqual([
      "Sun 22 Mar 2026, 02:30 CET",
      "Sun 29 Mar 2026, 03:30 CEST",
      "Sun 5 Apr 2026, 02:30 CEST",
    ]);
    const ny = previewOf(
      form({ frequency: "daily", time: "09:00", tz: "America/New_York" }),
      new Date("2026-11-01T00:00:00Z"),
      2,
    );
    if (!("runs" in ny)) throw new Error(ny.error);
    expect(ny.runs.map((d) => d.toISOString())).toEqual([
      "2026-11-01T14:00:00.000Z",
      "2026-11-02T14:00:00.000Z",
    ]);
    expect(previewOf(form({ tz: "Nowhere/Land" }), new Date())).toHaveProperty("error");
  });

  it("previews a gated schedule's run days only: the last working day over Berlin's spring change", () => {
    const f = form({ frequency: "monthly", on: "last-workday", time: "17:00", tz: "Europe/Berlin" });
    const preview = previewOf(f, new Date("2027-01-01T00:00:00Z"), 3);
    if (!("runs" in preview)) throw new Error(preview.error);
    expect(preview.runs.map((d) => runTime(d, "Europe/Berlin"))).toEqual([
      "Fri 29 Jan 2027, 17:00 CET",
      "Fri 26 Feb 2027, 17:00 CET",
      "Wed 31 Mar 2027, 17:00 CEST",
    ]);
  });
});
