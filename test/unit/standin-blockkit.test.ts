import { describe, expect, it } from "vitest";
import { readMessage } from "../../sandbox/slack/api/content.ts";
import {
  checkMessageBlocks,
  checkUnfurlBlocks,
  checkViewPayload,
  SLACK_LIMITS,
} from "../../sandbox/slack/blockkit/index.ts";
import { LIMITS } from "../../src/blockkit/limit-values.ts";

/**
 * The Slack stand-in keeps its own Block Kit limits (from Slack's reference) apart from the app's
 * table. These tests hold the two against each other: every app limit must be within Slack's, and
 * the stand-in must refuse one past Slack's figure, so a wrong app limit cannot pass the e2e tests.
 */

type AppLimit = keyof typeof LIMITS;
type Problems = (n: number) => string[];

/** The app's total-text budget is what keeps its markdown under Slack's cumulative markdown cap. */
const SLACK_NAME: Partial<Record<AppLimit, keyof typeof SLACK_LIMITS>> = {
  messageTotalText: "markdownTotal",
};
const slackFigure = (k: AppLimit) => SLACK_LIMITS[SLACK_NAME[k] ?? (k as keyof typeof SLACK_LIMITS)];

const s = (n: number, c = "x") => c.repeat(n);
const plain = (text: string) => ({ type: "plain_text", text });
const option = (i: number, o: { text?: string; value?: string; description?: string } = {}) => ({
  text: plain(o.text ?? `o${i}`),
  value: o.value ?? `v${i}`,
  ...(o.description !== undefined ? { description: plain(o.description) } : {}),
});
const message = (...blocks: unknown[]) => checkMessageBlocks(blocks);
const actions = (...elements: unknown[]) => message({ type: "actions", elements });
const select = (extra: Record<string, unknown>) => ({ type: "static_select", action_id: "s", ...extra });
const modal = (extra: Record<string, unknown> = {}, blocks: unknown[] = [{ type: "divider" }]) =>
  checkViewPayload({ type: "modal", title: plain("T"), blocks, ...extra }, "modal");
const input = (element: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  modal({ submit: plain("Save") }, [{ type: "input", label: plain("L"), element, ...extra }]);
const button = (extra: Record<string, unknown>) => ({ type: "button", text: plain("b"), ...extra });
const confirm = (over: Record<string, string>) => ({
  title: plain(over.title ?? "t"),
  text: plain(over.text ?? "x"),
  confirm: plain(over.confirm ?? "y"),
  deny: plain(over.deny ?? "n"),
});

/** A line chart of `series` series over `points` categories, every name `name` long at least. */
function chart(o: { title?: string; series?: number; points?: number; label?: number; axis?: number } = {}) {
  const points = o.points ?? 3;
  const pad = (t: string) => t.padEnd(o.label ?? 1, "x");
  const categories = Array.from({ length: points }, (_, i) => pad(`c${i}`));
  return {
    type: "data_visualization",
    title: o.title ?? "Violations per day",
    chart: {
      type: "line",
      series: Array.from({ length: o.series ?? 2 }, (_, k) => ({
        name: pad(`s${k}`),
        data: categories.map((label, i) => ({ label, value: i * k })),
      })),
      axis_config: { categories, ...(o.axis !== undefined ? { y_label: s(o.axis) } : {}) },
    },
  };
}
const cell = (text: string) => ({ type: "raw_text", text });
const table = (rows: number, cells: number, settings = 0) => ({
  type: "table",
  rows: Array.from({ length: rows }, (_, r) => Array.from({ length: cells }, (_, c) => cell(`${r}.${c}`))),
  ...(settings > 0 ? { column_settings: Array.from({ length: settings }, () => ({ align: "right" })) } : {}),
});

/** A payload exactly `n` long in the field or list each limit governs. */
const BUILD: Record<AppLimit, Problems> = {
  messageBlocks: (n) => checkMessageBlocks(Array.from({ length: n }, () => ({ type: "divider" }))),
  viewBlocks: (n) =>
    modal(
      {},
      Array.from({ length: n }, () => ({ type: "divider" })),
    ),
  messageTotalText: (n) =>
    message(
      { type: "markdown", text: s(Math.ceil(n / 2)) },
      { type: "markdown", text: s(Math.floor(n / 2)) },
    ),
  topLevelText: (n) => {
    try {
      readMessage({ text: s(n) }, { requireContent: true });
      return [];
    } catch (err) {
      return [String((err as { code?: unknown }).code)];
    }
  },
  sectionText: (n) => message({ type: "section", text: { type: "mrkdwn", text: s(n) } }),
  sectionFields: (n) =>
    message({ type: "section", fields: Array.from({ length: n }, (_, i) => plain(`f${i}`)) }),
  sectionFieldText: (n) => message({ type: "section", fields: [plain(s(n))] }),
  headerText: (n) => message({ type: "header", text: plain(s(n)) }),
  contextElements: (n) =>
    message({ type: "context", elements: Array.from({ length: n }, (_, i) => plain(`c${i}`)) }),
  contextText: (n) => message({ type: "context", elements: [{ type: "mrkdwn", text: s(n) }] }),
  actionsElements: (n) => actions(...Array.from({ length: n }, (_, i) => button({ action_id: `a${i}` }))),
  contextActionsElements: (n) =>
    message({
      type: "context_actions",
      elements: Array.from({ length: n }, (_, i) => ({
        type: "feedback_buttons",
        action_id: `f${i}`,
        positive_button: { text: plain("+"), value: "p" },
        negative_button: { text: plain("-"), value: "n" },
      })),
    }),
  id: (n) => message({ type: "divider", block_id: s(n) }),
  selectOptions: (n) => actions(select({ options: Array.from({ length: n }, (_, i) => option(i)) })),
  selectOptionGroups: (n) =>
    actions(
      select({
        option_groups: Array.from({ length: n }, (_, i) => ({ label: plain(`g${i}`), options: [option(i)] })),
      }),
    ),
  overflowOptions: (n) =>
    actions({ type: "overflow", action_id: "o", options: Array.from({ length: n }, (_, i) => option(i)) }),
  choiceOptions: (n) =>
    input({ type: "checkboxes", action_id: "c", options: Array.from({ length: n }, (_, i) => option(i)) }),
  optionText: (n) => actions(select({ options: [option(0, { text: s(n) })] })),
  optionValue: (n) => actions(select({ options: [option(0, { value: s(n) })] })),
  optionDescription: (n) =>
    input({ type: "radio_buttons", action_id: "r", options: [option(0, { description: s(n) })] }),
  optionGroupLabel: (n) => actions(select({ option_groups: [{ label: plain(s(n)), options: [option(0)] }] })),
  placeholder: (n) => actions(select({ options: [option(0)], placeholder: plain(s(n)) })),
  buttonText: (n) => actions(button({ text: plain(s(n)) })),
  buttonValue: (n) => actions(button({ value: s(n) })),
  url: (n) => actions(button({ url: `https://e.example/${s(n - 18)}` })),
  imageAltText: (n) => message({ type: "image", image_url: "https://e.example/i.png", alt_text: s(n) }),
  imageTitle: (n) =>
    message({ type: "image", image_url: "https://e.example/i.png", alt_text: "a", title: plain(s(n)) }),
  inputLabel: (n) =>
    modal({ submit: plain("S") }, [
      { type: "input", label: plain(s(n)), element: { type: "plain_text_input" } },
    ]),
  inputHint: (n) => input({ type: "plain_text_input" }, { hint: plain(s(n)) }),
  inputLength: (n) => input({ type: "plain_text_input", initial_value: s(n), max_length: n }),
  markdownBlockText: (n) => message({ type: "markdown", text: s(n) }),
  confirmTitle: (n) => actions(button({ confirm: confirm({ title: s(n) }) })),
  confirmText: (n) => actions(button({ confirm: confirm({ text: s(n) }) })),
  confirmButton: (n) => actions(button({ confirm: confirm({ confirm: s(n), deny: s(n) }) })),
  modalTitle: (n) => modal({ title: plain(s(n)) }),
  modalButton: (n) => modal({ submit: plain(s(n)), close: plain(s(n)) }),
  privateMetadata: (n) => modal({ private_metadata: s(n) }),
  chartTitle: (n) => message(chart({ title: s(n) })),
  chartSeries: (n) => message(chart({ series: n })),
  chartPoints: (n) => message(chart({ points: n })),
  chartLabel: (n) => message(chart({ label: n })),
  chartAxisLabel: (n) => message(chart({ axis: n })),
  chartsPerMessage: (n) => message(...Array.from({ length: n }, () => chart())),
  tableRows: (n) => message(table(n, 2)),
  tableCells: (n) => message(table(2, n)),
  tableColumnSettings: (n) => message(table(2, 2, n)),
  tablesPerMessage: (n) => message(...Array.from({ length: n }, () => table(2, 2))),
};

describe("the Slack stand-in's own Block Kit limits against the app's", () => {
  it("every app limit has a Slack figure in the stand-in's table, and is within it", () => {
    const over = (Object.keys(LIMITS) as AppLimit[])
      .filter((k) => !(LIMITS[k] <= slackFigure(k)))
      .map((k) => `${k}: app ${LIMITS[k]} > Slack ${slackFigure(k)}`);
    expect(over).toEqual([]);
  });

  it.each(Object.keys(LIMITS) as AppLimit[])(
    "%s: a payload at the app's limit passes the stand-in, one past Slack's is refused",
    (k) => {
      expect(BUILD[k](LIMITS[k])).toEqual([]);
      expect(BUILD[k](slackFigure(k) + 1).length).toBeGreaterThan(0);
    },
  );

  it("a wrong app limit would be caught: one past Slack's figure is refused where the app's is accepted", () => {
    // What the e2e tests would see if the app's header limit were raised to 200.
    expect(BUILD.headerText(200)).toEqual([
      "must be less than 151 characters [json-pointer:/blocks/0/text/text]",
    ]);
  });
});

describe("the Slack stand-in's Block Kit check", () => {
  it("refuses properties Slack does not define, text of the wrong type, and missing fields", () => {
    expect(message({ type: "divider", colour: "red" })).toEqual([
      "invalid additional property: colour [json-pointer:/blocks/0]",
    ]);
    expect(message({ type: "header", text: { type: "mrkdwn", text: "*h*" } })).toEqual([
      "must be plain_text [json-pointer:/blocks/0/text/type]",
    ]);
    expect(message({ type: "section", text: { type: "mrkdwn", text: "a", emoji: true } })).toEqual([
      "invalid additional property: emoji [json-pointer:/blocks/0/text]",
    ]);
    expect(message({ type: "image", image_url: "https://e.example/i.png" })).toEqual([
      "missing required field: alt_text [json-pointer:/blocks/0]",
    ]);
    expect(message({ type: "carousel" })).toEqual([
      "unsupported type: carousel [json-pointer:/blocks/0/type]",
    ]);
  });

  it("refuses duplicate block ids, initial options not in the menu, and a modal with inputs but no submit", () => {
    expect(message({ type: "divider", block_id: "b" }, { type: "divider", block_id: "b" })).toEqual([
      "duplicate block_id [json-pointer:/blocks/1/block_id]",
    ]);
    expect(actions(select({ options: [option(0)], initial_option: option(1) }))).toEqual([
      "must match one of the provided options [json-pointer:/blocks/0/elements/0/initial_option]",
    ]);
    expect(modal({}, [{ type: "input", label: plain("L"), element: { type: "plain_text_input" } }])).toEqual([
      "missing required field: submit (a modal with input blocks needs one) [json-pointer:]",
    ]);
  });

  it("checks a chart's series against its categories: one numeric point per category, in their names", () => {
    const c = chart();
    expect(message(c)).toEqual([]);
    const bad = structuredClone(c);
    bad.chart.series[0]?.data.pop();
    (bad.chart.series[1]?.data[0] as { value: unknown }).value = null;
    (bad.chart.series[1]?.data[1] as { label: string }).label = "Tue";
    expect(message(bad)).toEqual([
      "must hold exactly one point for every category [json-pointer:/blocks/0/chart/series/0/data]",
      "must provide a number [json-pointer:/blocks/0/chart/series/1/data/0/value]",
      "must match one of axis_config.categories [json-pointer:/blocks/0/chart/series/1/data/1/label]",
    ]);
    expect(message({ ...c, chart: { ...c.chart, type: "scatter" } })).toEqual([
      "must be one of line, bar, area, pie [json-pointer:/blocks/0/chart/type]",
    ]);
    const twice = structuredClone(c);
    twice.chart.series[1] = { ...(twice.chart.series[1] as (typeof c.chart.series)[0]), name: "s0" };
    expect(message(twice)).toEqual([
      "series names must be unique [json-pointer:/blocks/0/chart/series/1/name]",
    ]);
  });

  it("takes charts and tables in messages only: a modal, the Home tab or an unfurl refuses them", () => {
    expect(modal({}, [chart()])).toEqual([
      "data_visualization blocks are not supported in modal views [json-pointer:/blocks/0/type]",
    ]);
    expect(checkViewPayload({ type: "home", blocks: [table(2, 2)] }, "home")).toEqual([
      "table blocks are not supported in home views [json-pointer:/blocks/0/type]",
    ]);
    expect(checkUnfurlBlocks([chart(), table(2, 2)])).toEqual([
      "data_visualization blocks are not supported in unfurls [json-pointer:/blocks/0/type]",
      "table blocks are not supported in unfurls [json-pointer:/blocks/1/type]",
    ]);
    expect(checkUnfurlBlocks([{ type: "divider" }])).toEqual([]);
  });

  it("checks table cells and column settings, and refuses a ragged table", () => {
    expect(message(table(3, 4, 4))).toEqual([]);
    const t = table(2, 2);
    expect(message({ ...t, rows: [[cell("a"), cell("b")], [cell("c")]] })).toEqual([
      "every row must have the same number of cells [json-pointer:/blocks/0/rows/1]",
    ]);
    expect(message({ ...t, rows: [[{ type: "raw_number", value: 3 }]] })).toEqual([
      "must be one of raw_text, rich_text [json-pointer:/blocks/0/rows/0/0/type]",
    ]);
    expect(message({ ...t, column_settings: [{ align: "justify" }] })).toEqual([
      "must be left, center or right [json-pointer:/blocks/0/column_settings/0/align]",
    ]);
  });

  it("checks a data table: caption, header plus 1 to 100 rows, no rich text in the header, 10,000 characters", () => {
    const rows = (n: number, text = "v") => Array.from({ length: n }, () => [cell(text), cell(text)]);
    const ok = { type: "data_table", caption: "Drivers", rows: rows(3) };
    expect(message(ok)).toEqual([]);
    expect(message({ type: "data_table", rows: rows(1) })).toEqual([
      "missing required field: caption [json-pointer:/blocks/0]",
      "must provide at least 2 items [json-pointer:/blocks/0/rows]",
    ]);
    expect(message({ ...ok, rows: rows(102) })).toEqual([
      "no more than 101 items allowed [json-pointer:/blocks/0/rows]",
    ]);
    expect(message({ ...ok, rows: rows(2, s(2_501)) })).toEqual([
      "cells must be less than 10001 characters in all [json-pointer:/blocks/0/rows]",
    ]);
    expect(
      message({
        ...ok,
        rows: [
          [{ type: "rich_text", elements: [{ type: "rich_text_section", elements: [] }] }, cell("b")],
          [cell("c"), cell("d")],
        ],
      }),
    ).toEqual(["header cells cannot be rich_text [json-pointer:/blocks/0/rows/0/0/type]"]);
  });

  it("refuses the block types a test names, as a workspace without them would", () => {
    const refuse = new Set(["data_visualization"]);
    expect(checkMessageBlocks([{ type: "divider" }, chart()], { refuse })).toEqual([
      "unsupported type: data_visualization [json-pointer:/blocks/1/type]",
    ]);
    expect(checkMessageBlocks([table(2, 2)], { refuse })).toEqual([]);
  });

  it("accepts an image from a slack_file only when the file is ready", () => {
    const block = { type: "image", slack_file: { id: "F0READY001" }, alt_text: "chart" };
    expect(checkMessageBlocks([block])).toEqual(["invalid slack file [json-pointer:/blocks/0/slack_file]"]);
    expect(checkMessageBlocks([block], { fileReady: (f) => f.id === "F0READY001" })).toEqual([]);
  });
});
