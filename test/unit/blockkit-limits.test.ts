import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkMessage, checkView, LIMITS, messageTextLength } from "../../src/blockkit/limits.ts";

const pt = (text: string) => ({ type: "plain_text", text });
const md = (text: string) => ({ type: "mrkdwn", text });
const x = (n: number) => "x".repeat(n);
const option = (value: string, text = value) => ({ text: pt(text), value });
const button = (over: Record<string, unknown> = {}) => ({
  type: "button",
  action_id: "b",
  text: pt("Go"),
  ...over,
});
const select = (over: Record<string, unknown> = {}) => ({
  type: "static_select",
  action_id: "s",
  placeholder: pt("Pick"),
  options: [option("a")],
  ...over,
});
const actions = (...elements: unknown[]) => ({ type: "actions", elements });
const msg = (...blocks: unknown[]) => ({ text: "fallback", blocks });
const modal = (over: Record<string, unknown> = {}) => ({
  type: "modal",
  title: pt("Title"),
  blocks: [{ type: "section", text: md("hi") }],
  ...over,
});

/** Asserts the payload breaks exactly the rule named by `fragment` (and that a problem says so). */
function expectProblem(problems: string[], fragment: RegExp): void {
  expect(problems.length).toBeGreaterThan(0);
  expect(
    problems.some((p) => fragment.test(p)),
    problems.join("\n"),
  ).toBe(true);
}

describe("checkMessage accepts what Slack accepts", () => {
  it("passes a message using every block kind at its limits", () => {
    const ok = msg(
      { type: "header", text: pt(x(LIMITS.headerText)) },
      { type: "section", text: md(x(LIMITS.sectionText)), accessory: button() },
      { type: "section", fields: Array.from({ length: 10 }, () => md(x(200))) },
      { type: "context", elements: Array.from({ length: 10 }, () => md("c")) },
      { type: "divider" },
      { type: "image", image_url: "https://x/y.png", alt_text: "chart" },
      { type: "image", slack_file: { id: "F123" }, alt_text: "chart" },
      actions(
        ...Array.from({ length: 23 }, (_, i) => button({ action_id: `b${i}`, value: x(LIMITS.buttonValue) })),
        select({
          options: Array.from({ length: 100 }, (_, i) =>
            option(x(LIMITS.optionValue - 3) + i, i === 0 ? x(LIMITS.optionText) : "o"),
          ),
        }),
        { type: "external_select", action_id: "e", placeholder: pt("Search"), min_query_length: 1 },
      ),
    );
    expect(checkMessage(ok)).toEqual([]);
  });

  it("passes option groups of 100 × 100 and a matching initial option", () => {
    const groups = Array.from({ length: 100 }, (_, g) => ({
      label: pt(x(75)),
      options: Array.from({ length: 100 }, (_, i) => option(`g${g}-${i}`, "n")),
    }));
    const menu = {
      type: "static_select",
      action_id: "s",
      placeholder: pt("p"),
      option_groups: groups,
      initial_option: option("g3-4", "n"),
    };
    const problems = checkMessage({ blocks: [actions(menu)] });
    // 10,000 option texts plus labels: only the message-wide text budget may object.
    expect(problems.filter((p) => !/totals/.test(p))).toEqual([]);
  });

  it("lets rows of the same kind reuse action ids in different blocks", () => {
    expect(checkMessage(msg(actions(button()), actions(button())))).toEqual([]);
  });
});

describe("checkMessage catches each rule", () => {
  const cases: [string, unknown, RegExp][] = [
    [
      "over 50 blocks",
      msg(...Array.from({ length: 51 }, () => ({ type: "divider" }))),
      /^blocks has 51 entries, over 50/,
    ],
    [
      "section text over 3,000",
      msg({ type: "section", text: md(x(3001)) }),
      /text is 3,001 characters, over 3,000/,
    ],
    [
      "more than 10 fields",
      msg({ type: "section", fields: Array.from({ length: 11 }, () => md("f")) }),
      /fields has 11 entries/,
    ],
    ["a field over 2,000", msg({ type: "section", fields: [md(x(2001))] }), /fields\[0\]\.text is 2,001/],
    ["section with neither text nor fields", msg({ type: "section" }), /needs text or fields/],
    ["header over 150", msg({ type: "header", text: pt(x(151)) }), /header.*over 150/],
    ["mrkdwn header", msg({ type: "header", text: md("h") }), /must be plain_text/],
    [
      "context over 10 elements",
      msg({ type: "context", elements: Array.from({ length: 11 }, () => md("c")) }),
      /elements has 11/,
    ],
    [
      "actions over 25 elements",
      msg(actions(...Array.from({ length: 26 }, (_, i) => button({ action_id: `b${i}` })))),
      /elements has 26/,
    ],
    ["block_id over 255", msg({ type: "divider", block_id: x(256) }), /block_id is 256/],
    ["action_id over 255", msg(actions(button({ action_id: x(256) }))), /action_id is 256/],
    [
      "duplicate block_id",
      msg({ type: "divider", block_id: "d" }, { type: "divider", block_id: "d" }),
      /block_id "d" is used twice/,
    ],
    ["duplicate action_id in a block", msg(actions(button(), button())), /action_id "b" is used twice/],
    [
      "select over 100 options",
      msg(actions(select({ options: Array.from({ length: 101 }, (_, i) => option(`v${i}`)) }))),
      /options has 101/,
    ],
    [
      "over 100 option groups",
      msg(
        actions(
          select({
            options: undefined,
            option_groups: Array.from({ length: 101 }, () => ({ label: pt("g"), options: [option("v")] })),
          }),
        ),
      ),
      /option_groups has 101/,
    ],
    [
      "an option group over 100 options",
      msg(
        actions(
          select({
            options: undefined,
            option_groups: [
              { label: pt("g"), options: Array.from({ length: 101 }, (_, i) => option(`v${i}`)) },
            ],
          }),
        ),
      ),
      /option_groups\[0\]\.options has 101/,
    ],
    [
      "both options and groups",
      msg(actions(select({ option_groups: [] }))),
      /exactly one of options or option_groups/,
    ],
    [
      "option text over 75",
      msg(actions(select({ options: [option("v", x(76))] }))),
      /options\[0\]\.text\.text is 76/,
    ],
    [
      "option value over 75",
      msg(actions(select({ options: [option(x(76), "t")] }))),
      /options\[0\]\.value is 76/,
    ],
    [
      "option group label over 75",
      msg(
        actions(
          select({ options: undefined, option_groups: [{ label: pt(x(76)), options: [option("v")] }] }),
        ),
      ),
      /label\.text is 76/,
    ],
    [
      "initial option not in the menu",
      msg(actions(select({ initial_option: option("zzz") }))),
      /not one of the menu's options/,
    ],
    ["button text over 75", msg(actions(button({ text: pt(x(76)) }))), /text\.text is 76/],
    ["button value over 2,000", msg(actions(button({ value: x(2001) }))), /value is 2,001/],
    ["button url over 3,000", msg(actions(button({ url: `https://${x(3000)}` }))), /url is 3,008/],
    ["button style unknown", msg(actions(button({ style: "blue" }))), /style must be primary or danger/],
    ["button without text", msg(actions(button({ text: undefined }))), /text is required/],
    ["placeholder over 150", msg(actions(select({ placeholder: pt(x(151)) }))), /placeholder\.text is 151/],
    [
      "external select with a bad min_query_length",
      msg(actions({ type: "external_select", action_id: "e", placeholder: pt("p"), min_query_length: -1 })),
      /min_query_length/,
    ],
    [
      "total text over 12,000",
      msg(...Array.from({ length: 5 }, () => ({ type: "section", text: md(x(2500)) }))),
      /totals 12,508 characters, over 12,000/,
    ],
    ["block without a type", msg({ text: md("t") }), /type is missing or unknown/],
    ["unknown block type", msg({ type: "carousel" }), /type is missing or unknown/],
    [
      "text object without type",
      msg({ type: "section", text: { text: "t" } }),
      /type must be plain_text or mrkdwn/,
    ],
    [
      "text object without text",
      msg({ type: "section", text: { type: "mrkdwn" } }),
      /text\.text is required/,
    ],
    ["empty text", msg({ type: "section", text: md("") }), /must not be empty/],
    [
      "emoji on mrkdwn",
      msg({ type: "section", text: { type: "mrkdwn", text: "t", emoji: true } }),
      /emoji is only for plain_text/,
    ],
    ["image without a source", msg({ type: "image", alt_text: "a" }), /needs image_url or slack_file/],
    ["image without alt text", msg({ type: "image", image_url: "https://x/y.png" }), /alt_text is required/],
    [
      "slack_file without id or url",
      msg({ type: "image", slack_file: {}, alt_text: "a" }),
      /slack_file needs an id or a url/,
    ],
    [
      "input block in a message",
      msg({ type: "input", label: pt("l"), element: { type: "plain_text_input", action_id: "i" } }),
      /input blocks belong in modals/,
    ],
    [
      "text input in an actions block",
      msg(actions({ type: "plain_text_input", action_id: "i" })),
      /not allowed in actions/,
    ],
    [
      "confirm text over 300",
      msg(
        actions(button({ confirm: { title: pt("t"), text: md(x(301)), confirm: pt("y"), deny: pt("n") } })),
      ),
      /confirm\.text\.text is 301/,
    ],
    ["neither text nor blocks", { blocks: [] }, /needs text or blocks/],
    ["blocks not an array", { text: "t", blocks: "nope" }, /blocks must be an array/],
    ["not an object", "junk", /message must be an object/],
  ];
  it.each(cases)("%s", (_, payload, fragment) => {
    expectProblem(checkMessage(payload), fragment);
  });
});

describe("charts and tables", () => {
  const categories = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`);
  const chart = (n = 3, series = 2) => ({
    type: "data_visualization",
    title: "Violations per day",
    chart: {
      type: "line",
      series: Array.from({ length: series }, (_, k) => ({
        name: `s${k}`,
        data: categories(n).map((label) => ({ label, value: k })),
      })),
      axis_config: { categories: categories(n), y_label: "violations" },
    },
  });
  const cell = (text: string) => ({ type: "raw_text", text });
  const table = (rows: number, cells: number) => ({
    type: "table",
    rows: Array.from({ length: rows }, () => Array.from({ length: cells }, () => cell("v"))),
  });

  it("passes a chart of 6 series × 20 points and a table of 100 rows × 20 cells in one message", () => {
    expect(checkMessage(msg(chart(LIMITS.chartPoints, LIMITS.chartSeries), table(100, 20)))).toEqual([]);
  });

  it("refuses too many points, a point out of category order, a gap, a second chart or table", () => {
    expectProblem(checkMessage(msg(chart(21))), /categories has 21 entries, over 20/);
    const swapped = chart();
    swapped.chart.series[0]?.data.reverse();
    expectProblem(checkMessage(msg(swapped)), /data\[0\]\.label must be category 0/);
    const gap = chart();
    (gap.chart.series[1]?.data[1] as { value: unknown }).value = null;
    expectProblem(checkMessage(msg(gap)), /data\[1\]\.value must be a number/);
    expectProblem(checkMessage(msg(chart(), chart())), /at most 1 per message/);
    expectProblem(checkMessage(msg(table(2, 2), table(2, 2))), /at most 1 per message/);
    expectProblem(
      checkMessage(msg({ ...table(2, 2), rows: [[cell("a")], [cell("b"), cell("c")]] })),
      /must have 1 cells/,
    );
  });

  it("counts table cells against the message's text and keeps charts and tables out of views and unfurls", () => {
    expect(messageTextLength(msg(table(2, 2)))).toBe("fallback".length + 4);
    expectProblem(checkView(modal({ blocks: [chart()] })), /only messages take it/);
    expectProblem(checkView({ type: "home", blocks: [table(2, 2)] }), /only messages take it/);
    expectProblem(checkMessage({ blocks: [chart()] }, "unfurl"), /only messages take it/);
  });
});

describe("checkView", () => {
  const input = {
    type: "input",
    block_id: "k",
    label: pt("Key"),
    element: { type: "plain_text_input", action_id: "k" },
  };

  it("accepts a modal with input at its limits and a home tab of 100 blocks", () => {
    const ok = modal({
      title: pt(x(24)),
      submit: pt(x(24)),
      close: pt(x(24)),
      private_metadata: x(3000),
      blocks: [input, ...Array.from({ length: 99 }, () => ({ type: "divider" }))],
    });
    expect(checkView(ok)).toEqual([]);
    expect(
      checkView({ type: "home", blocks: Array.from({ length: 100 }, () => ({ type: "divider" })) }),
    ).toEqual([]);
  });

  const cases: [string, unknown, RegExp][] = [
    [
      "over 100 blocks",
      modal({ blocks: Array.from({ length: 101 }, () => ({ type: "divider" })) }),
      /blocks has 101 entries, over 100/,
    ],
    [
      "home over 100 blocks",
      { type: "home", blocks: Array.from({ length: 101 }, () => ({ type: "divider" })) },
      /over 100/,
    ],
    ["title over 24", modal({ title: pt(x(25)) }), /^title\.text is 25/],
    ["missing title", modal({ title: undefined }), /^title is required/],
    ["submit over 24", modal({ submit: pt(x(25)) }), /^submit\.text is 25/],
    ["close over 24", modal({ close: pt(x(25)) }), /^close\.text is 25/],
    ["private_metadata over 3,000", modal({ private_metadata: x(3001) }), /private_metadata is 3,001/],
    ["callback_id over 255", modal({ callback_id: x(256) }), /callback_id is 256/],
    ["input without submit", modal({ blocks: [input] }), /needs a submit button/],
    [
      "input label over 2,000",
      modal({ submit: pt("Go"), blocks: [{ ...input, label: pt(x(2001)) }] }),
      /label\.text is 2,001/,
    ],
    [
      "input without element",
      modal({ submit: pt("Go"), blocks: [{ ...input, element: undefined }] }),
      /element is required/,
    ],
    [
      "input max_length over 3,000",
      modal({
        submit: pt("Go"),
        blocks: [{ ...input, element: { type: "plain_text_input", action_id: "k", max_length: 3001 } }],
      }),
      /max_length/,
    ],
    ["unknown view type", { type: "dialog", blocks: [] }, /view\.type must be modal or home/],
  ];
  it.each(cases)("catches %s", (_, view, fragment) => {
    expectProblem(checkView(view), fragment);
  });
});

describe("the checker is total", () => {
  it("never throws on arbitrary input and always answers a list of strings", () => {
    fc.assert(
      fc.property(fc.anything({ withObjectString: true, withNullPrototype: true, maxDepth: 4 }), (junk) => {
        for (const result of [
          checkMessage(junk),
          checkView(junk),
          checkMessage({ blocks: [junk] }),
          checkView({ type: "modal", blocks: [junk] }),
        ]) {
          expect(Array.isArray(result)).toBe(true);
          for (const p of result) expect(typeof p).toBe("string");
        }
        expect(Number.isFinite(messageTextLength(junk))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("survives objects whose getters throw", () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
      },
    );
    expect(checkMessage({ blocks: [hostile] })).toEqual(["payload could not be read"]);
    expect(checkView(hostile)).toEqual(["payload could not be read"]);
    expect(messageTextLength(hostile)).toBe(0);
  });

  it("counts the text a message carries", () => {
    expect(messageTextLength(msg({ type: "section", text: md("abc"), fields: [pt("de")] }))).toBe(
      "fallback".length + 5,
    );
  });
});
