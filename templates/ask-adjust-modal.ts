import { LIMITS } from "../src/blockkit/limits.ts";
import { mrkdwn, plain } from "../src/blockkit/text.ts";
import type { Block, OptionObject } from "../src/blockkit/types.ts";
import { CALLBACK, ASK_FIELD as F } from "../src/ids.ts";
import type { SubscribeModalView } from "./subscribe-modal.ts";
import type { ModalInputBlock } from "./subscribe-modal-fields.ts";

/**
 * The Adjust modal of a plain-language answer: what was understood, laid out field by field, so a
 * misread can be put right without retyping the question. Periods and comparisons take the same
 * words a question does (or the slash command's forms); names, the account's names as typed.
 */

export interface AdjustModalFields {
  what: "digest" | "drivers" | "trend" | "export";
  metrics: ("findings" | "violations" | "fixes" | "fixRate" | "merged")[];
  period: string;
  compare: string;
  assets: string;
  scanners: string;
}

/**
 * How many characters each text field of the form holds, one number for every place it passes: the
 * modal's `max_length` and initial value, what a button or a kept draft carries, what a submission is
 * read up to. Names get Block Kit's most for a text input, so a form filled in and sent back
 * unchanged asks the same question.
 */
export const ADJUST_FIELD_CHARS = {
  period: 200,
  compare: 200,
  assets: LIMITS.inputLength,
  scanners: LIMITS.inputLength,
} as const;

export type AdjustTextField = keyof typeof ADJUST_FIELD_CHARS;

const option = (text: string, value: string): OptionObject => ({
  text: plain(text, LIMITS.optionText),
  value,
});

export const WHAT_OPTIONS = [
  option("The numbers (digest)", "digest"),
  option("Why they changed", "drivers"),
  option("The trend", "trend"),
  option("A CSV file of the days", "export"),
];

export const METRIC_OPTIONS = [
  option("Findings", "findings"),
  option("Violations", "violations"),
  option("Fixes", "fixes"),
  option("Fix rate", "fixRate"),
  option("Merged violations", "merged"),
];

const label = (text: string) => plain(text, LIMITS.inputLabel);
const hint = (text: string) => plain(text, LIMITS.inputHint);

function textInput(
  id: string,
  field: AdjustTextField,
  title: string,
  value: string,
  hintText: string,
  optional: boolean,
): ModalInputBlock {
  return {
    type: "input",
    block_id: id,
    label: label(title),
    hint: hint(hintText),
    optional,
    element: {
      type: "plain_text_input",
      action_id: id,
      max_length: ADJUST_FIELD_CHARS[field],
      // Whole: a value over the field's limit never reaches the form (the answer offers no Adjust).
      ...(value ? { initial_value: value } : {}),
    },
  };
}

/** The modal for `fields`; `privateMetadata` says which conversation gets the new answer. */
export function askAdjustModal(fields: AdjustModalFields, privateMetadata: string): SubscribeModalView {
  const what = WHAT_OPTIONS.find((o) => o.value === fields.what) ?? (WHAT_OPTIONS[0] as OptionObject);
  const chosen = METRIC_OPTIONS.filter((o) =>
    fields.metrics.includes(o.value as AdjustModalFields["metrics"][number]),
  );
  const blocks: (Block | ModalInputBlock)[] = [
    {
      type: "section",
      text: mrkdwn("Change what I understood; the new answer appears in the same thread."),
    },
    {
      type: "input",
      block_id: F.what,
      label: label("Show"),
      element: {
        type: "static_select",
        action_id: F.what,
        placeholder: plain("Choose", LIMITS.placeholder),
        options: WHAT_OPTIONS,
        initial_option: what,
      },
    },
    {
      type: "input",
      block_id: F.metrics,
      label: label("Numbers"),
      hint: hint("None ticked: all of them."),
      optional: true,
      element: {
        type: "checkboxes",
        action_id: F.metrics,
        options: METRIC_OPTIONS,
        ...(chosen.length > 0 ? { initial_options: chosen } : {}),
      },
    },
    textInput(
      F.period,
      "period",
      "Period",
      fields.period,
      "In words (last month, Q3, since Nov 1) or as the command takes it (last30d, 2026-10-01..2026-10-31).",
      false,
    ),
    textInput(
      F.compare,
      "compare",
      "Compare with",
      fields.compare,
      "Empty: the equally long period just before.",
      true,
    ),
    textInput(
      F.assets,
      "assets",
      "Assets and groups",
      fields.assets,
      "Names separated by commas; payments/* is the whole group. Empty: all.",
      true,
    ),
    textInput(
      F.scanners,
      "scanners",
      "Scanners",
      fields.scanners,
      "Scanner names or ids separated by commas. Empty: all.",
      true,
    ),
  ];
  return {
    type: "modal",
    callback_id: CALLBACK.askAdjust,
    title: plain("Adjust the question", LIMITS.modalTitle),
    submit: plain("Ask", LIMITS.modalButton),
    close: plain("Cancel", LIMITS.modalButton),
    blocks,
    private_metadata: privateMetadata.slice(0, LIMITS.privateMetadata),
  };
}
