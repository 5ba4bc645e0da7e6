import { describe, expect, it } from "vitest";
import { readMessage } from "../../sandbox/slack/api/content.ts";
import { checkMessageBlocks, checkViewPayload, SLACK_LIMITS } from "../../sandbox/slack/blockkit/index.ts";
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

  it("accepts an image from a slack_file only when the file is ready", () => {
    const block = { type: "image", slack_file: { id: "F0READY001" }, alt_text: "chart" };
    expect(checkMessageBlocks([block])).toEqual(["invalid slack file [json-pointer:/blocks/0/slack_file]"]);
    expect(checkMessageBlocks([block], { fileReady: (f) => f.id === "F0READY001" })).toEqual([]);
  });
});
