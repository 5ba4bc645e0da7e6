import type { FilterOption } from "../src/analytics/types.ts";
import { LIMITS } from "../src/blockkit/limits.ts";
import { mrkdwn, plain, userText } from "../src/blockkit/text.ts";
import type { Block, PlainText } from "../src/blockkit/types.ts";
import { AppError } from "../src/errors.ts";
import { BLOCK, CALLBACK, SUBSCRIBE_FIELD as F } from "../src/ids.ts";
import type { ChartStyle } from "../src/insights/types.ts";
import type { DeliveryStyle, Weekday } from "../src/subscriptions/types.ts";
import { shown } from "./error-message.ts";
import { usableChoices } from "./filter-menu.ts";
import {
  CHART_OPTIONS,
  DAY_OPTIONS,
  FREQUENCY_OPTIONS,
  filterSelect,
  MODE_OPTIONS,
  MONTH_DAY_GROUPS,
  type ModalInputBlock,
  rangeOptions,
  STYLE_OPTIONS,
} from "./subscribe-modal-fields.ts";
import { runTimeLines } from "./subscribe-times.ts";

/** How often, as the modal asks it: the schedule kinds. */
export type FrequencyChoice = "hourly" | "daily" | "weekdays" | "weekly" | "monthly" | "quarterly" | "cron";

/** The modal's fields, as filled in (or as a subscription being edited has them). */
export interface SubscribeForm {
  channelId?: string;
  frequency: FrequencyChoice;
  days: Weekday[];
  /** The day of a monthly or quarterly schedule, as its canonical text (`1`, `first-mon`, `last-workday`); absent = the 1st. */
  on?: string;
  cron: string;
  /** HH:MM, 24-hour. */
  time: string;
  tz: string;
  range: string;
  assetIds: string[];
  scannerIds: string[];
  /** "Post only when", as typed; "" = every run posts. */
  condition: string;
  mode: "digest" | "alert";
  style: DeliveryStyle;
  /** How the trend and drivers are shown; "default" = the workspace's setting. */
  chart?: ChartStyle | "default";
  /** A personal digest: delivered by DM to its owner, so there is no channel to choose. */
  personal?: boolean;
}

export interface SubscribeModalOptions {
  form: SubscribeForm;
  /** The workspace's filter lists; null when the endpoint offers none or they could not be loaded. */
  assets: FilterOption[] | null;
  scanners: FilterOption[] | null;
  /** The next runs of the schedule as filled in, or why there are none. */
  preview: { runs: Date[] } | { error: string };
  /** Editing an existing subscription (title and button say so). */
  editing?: boolean;
  /** A line above the preview (e.g. "the schedule changed: check the runs and save again"). */
  notice?: string;
  /** Most filters of each kind (the engine's limit). */
  maxFilters?: number;
  privateMetadata: string;
}

/** A modal view with the input elements of {@link ModalInputBlock}. */
export interface SubscribeModalView {
  type: "modal";
  callback_id: string;
  title: PlainText;
  submit: PlainText;
  close: PlainText;
  blocks: (Block | ModalInputBlock)[];
  private_metadata: string;
}

const label = (text: string) => plain(text, LIMITS.inputLabel);
const hint = (text: string) => plain(text, LIMITS.inputHint);

function scheduleBlocks(form: SubscribeForm): ModalInputBlock[] {
  const frequency =
    FREQUENCY_OPTIONS.find((o) => o.value === form.frequency) ??
    FREQUENCY_OPTIONS.find((o) => o.value === "weekly");
  const blocks: ModalInputBlock[] = [
    {
      type: "input",
      block_id: F.frequency,
      label: label("How often"),
      dispatch_action: true,
      element: {
        type: "radio_buttons",
        action_id: F.frequency,
        options: FREQUENCY_OPTIONS,
        initial_option: frequency,
      },
    },
  ];
  if (form.frequency === "weekly") {
    const days = DAY_OPTIONS.filter((o) => form.days.includes(o.value as Weekday));
    blocks.push({
      type: "input",
      block_id: F.weekday,
      label: label("On"),
      dispatch_action: true,
      element: {
        type: "checkboxes",
        action_id: F.weekday,
        options: DAY_OPTIONS,
        ...(days.length > 0 ? { initial_options: days } : {}),
      },
    });
  }
  if (form.frequency === "monthly" || form.frequency === "quarterly") {
    const chosen = MONTH_DAY_GROUPS.flatMap((g) => g.options).find((o) => o.value === (form.on ?? "1"));
    blocks.push({
      type: "input",
      block_id: F.monthDay,
      label: label(form.frequency === "monthly" ? "On" : "On, in each quarter"),
      dispatch_action: true,
      hint: hint(
        form.frequency === "monthly"
          ? "A day past a short month's end runs on its last day: the 31st is every month's last day."
          : "Days counted from a month's start run in the quarter's first month (Jan, Apr, Jul, Oct); the last day, last weekday or last working day in its last month (Mar, Jun, Sep, Dec).",
      ),
      element: {
        type: "static_select",
        action_id: F.monthDay,
        placeholder: plain("Day of the month", LIMITS.placeholder),
        option_groups: MONTH_DAY_GROUPS,
        ...(chosen ? { initial_option: chosen } : {}),
      },
    });
  }
  if (form.frequency === "cron") {
    blocks.push({
      type: "input",
      block_id: F.cron,
      label: label("Cron expression"),
      dispatch_action: true,
      hint: hint(
        "Five fields: minute hour day-of-month month day-of-week, e.g. 0 9 * * 1-5 (weekdays at 09:00). Press Enter to see the runs.",
      ),
      element: {
        type: "plain_text_input",
        action_id: F.cron,
        max_length: 100,
        placeholder: plain("0 9 * * 1-5", LIMITS.placeholder),
        ...(form.cron ? { initial_value: form.cron.slice(0, 100) } : {}),
      },
    });
  } else {
    blocks.push({
      type: "input",
      block_id: F.time,
      label: label(form.frequency === "hourly" ? "At (minutes past each hour)" : "At"),
      dispatch_action: true,
      element: { type: "timepicker", action_id: F.time, initial_time: form.time },
    });
  }
  blocks.push({
    type: "input",
    block_id: F.timezone,
    label: label("Timezone"),
    dispatch_action: true,
    hint: hint(
      "An IANA zone such as Europe/Berlin or America/New_York; daylight saving is followed. Press Enter to see the runs.",
    ),
    element: {
      type: "plain_text_input",
      action_id: F.timezone,
      initial_value: form.tz.slice(0, 64),
      max_length: 64,
    },
  });
  return blocks;
}

function filterBlocks(o: SubscribeModalOptions): (Block | ModalInputBlock)[] {
  const max = o.maxFilters ?? 20;
  const out: (Block | ModalInputBlock)[] = [];
  const lists: ["asset" | "scanner", FilterOption[] | null, string[], string][] = [
    ["asset", o.assets, o.form.assetIds, F.assets],
    ["scanner", o.scanners, o.form.scannerIds, F.scanners],
  ];
  for (const [kind, list, selected, id] of lists) {
    // Choices Slack cannot carry (empty or over-long values) are dropped, so count what is left.
    if (!list || usableChoices(list).length === 0) continue;
    out.push({
      type: "input",
      block_id: id,
      optional: true,
      label: label(kind === "asset" ? "Assets" : "Scanners"),
      hint: hint(`Leave empty for all ${kind}s.`),
      element: filterSelect(kind, list, selected, max),
    });
  }
  if (!o.assets || !o.scanners)
    out.push({
      type: "context",
      elements: [
        mrkdwn("Asset and scanner filters are not available from this analytics endpoint right now."),
      ],
    });
  return out;
}

/** What a run posts and when: the condition, digest or alert, and how runs appear. */
function runBlocks(form: SubscribeForm): ModalInputBlock[] {
  const mode = MODE_OPTIONS.find((o) => o.value === form.mode) ?? MODE_OPTIONS[0];
  const style = STYLE_OPTIONS.find((o) => o.value === form.style) ?? STYLE_OPTIONS[0];
  const chart = CHART_OPTIONS.find((o) => o.value === (form.chart ?? "default")) ?? CHART_OPTIONS[0];
  return [
    {
      type: "input",
      block_id: F.condition,
      optional: true,
      label: label("Post only when"),
      hint: hint(
        "e.g. when violations up 10% · when findings > 500 · when fixrate < 60% (the fix rate, in percent) · when violations unusual (yesterday against its weekday) · when violations rose 3 · when changed. Empty: every run posts. A run that does not meet it is recorded as skipped, with why.",
      ),
      element: {
        type: "plain_text_input",
        action_id: F.condition,
        max_length: 100,
        placeholder: plain("when violations up 10%", LIMITS.placeholder),
        ...(form.condition ? { initial_value: form.condition.slice(0, 100) } : {}),
      },
    },
    {
      type: "input",
      block_id: F.mode,
      label: label("Kind"),
      element: { type: "radio_buttons", action_id: F.mode, options: MODE_OPTIONS, initial_option: mode },
    },
    {
      type: "input",
      block_id: F.style,
      label: label("Messages"),
      hint: hint(
        "An alert posts one message per episode and edits it as it changes, whatever is chosen here.",
      ),
      element: { type: "radio_buttons", action_id: F.style, options: STYLE_OPTIONS, initial_option: style },
    },
    {
      type: "input",
      block_id: F.chart,
      label: label("Trend and drivers"),
      hint: hint(
        "Slack draws the chart and table where it can; if it refuses them, the image is posted instead.",
      ),
      element: { type: "radio_buttons", action_id: F.chart, options: CHART_OPTIONS, initial_option: chart },
    },
  ];
}

function previewBlock(o: SubscribeModalOptions): Block {
  const tz = userText(o.form.tz, 64);
  const body =
    "error" in o.preview
      ? `:warning: ${shown(o.preview.error, 500)}`
      : `*Next ${o.preview.runs.length} runs* (${tz})\n${runTimeLines(o.preview.runs, o.form.tz)}`;
  const notice = o.notice ? `${shown(o.notice, 300)}\n` : "";
  return { type: "section", block_id: BLOCK.subscribePreview, text: mrkdwn(`${notice}${body}`) };
}

/**
 * The subscribe modal: channel, frequency (hourly, daily, weekdays, weekly on chosen days, monthly or
 * quarterly on a chosen day, or cron),
 * time, timezone, range, asset and scanner filters, and the next runs of what is filled in. The
 * schedule inputs dispatch actions so the preview is redrawn as they change. Each input's
 * `block_id` and `action_id` are the same {@link F} name.
 *
 * @throws AppError `bad_state` when `privateMetadata` is over Slack's 3,000 characters.
 */
export function subscribeModal(o: SubscribeModalOptions): SubscribeModalView {
  if (o.privateMetadata.length > LIMITS.privateMetadata)
    throw new AppError("bad_state", "The subscribe form's metadata is too long to carry.");
  const where: Block | ModalInputBlock = o.form.personal
    ? {
        type: "section",
        text: mrkdwn(
          ":bust_in_silhouette: *Personal digest:* delivered to you alone, by direct message from the app.",
        ),
      }
    : {
        type: "input",
        block_id: F.channel,
        // Picking a channel has it checked at once, so the submission can say "invite the app" inline.
        dispatch_action: true,
        label: label("Channel"),
        hint: hint("The app must be a member: /invite @Insights in the channel first."),
        element: {
          type: "conversations_select",
          action_id: F.channel,
          placeholder: plain("Choose a channel", LIMITS.placeholder),
          filter: { include: ["public", "private"], exclude_bot_users: true },
          ...(o.form.channelId ? { initial_conversation: o.form.channelId } : {}),
        },
      };
  const blocks: (Block | ModalInputBlock)[] = [
    where,
    ...scheduleBlocks(o.form),
    {
      type: "input",
      block_id: F.range,
      label: label("Digest covers"),
      element: {
        type: "static_select",
        action_id: F.range,
        placeholder: plain("Range", LIMITS.placeholder),
        options: rangeOptions(o.form.range),
        initial_option: rangeOptions(o.form.range).find((r) => r.value === o.form.range),
      },
    },
    ...filterBlocks(o),
    ...runBlocks(o.form),
    { type: "divider" },
    previewBlock(o),
  ];
  return {
    type: "modal",
    callback_id: CALLBACK.subscribeModal,
    title: plain(
      o.editing ? "Edit subscription" : o.form.personal ? "New personal digest" : "New subscription",
      LIMITS.modalTitle,
    ),
    submit: plain(o.editing ? "Save" : "Subscribe", LIMITS.modalButton),
    close: plain("Cancel", LIMITS.modalButton),
    blocks,
    private_metadata: o.privateMetadata,
  };
}
