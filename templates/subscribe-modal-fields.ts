import type { FilterOption } from "../src/analytics/types.ts";
import { LIMITS } from "../src/blockkit/limits.ts";
import { plain } from "../src/blockkit/text.ts";
import type { OptionObject, PlainText } from "../src/blockkit/types.ts";
import { SUBSCRIBE_FIELD } from "../src/ids.ts";
import { monthDayText, ordinal } from "../src/subscriptions/month-day.ts";
import type { Nth, Weekday } from "../src/subscriptions/types.ts";
import { choiceOption, STATIC_MENU_MAX, usableChoices } from "./filter-menu.ts";

/**
 * The subscribe modal's input elements. Block Kit types the shared `src/blockkit/types.ts` does not
 * carry (radio buttons, checkboxes, time picker, conversation and multi selects) are declared here,
 * shaped as Slack documents them; `checkView` validates them like the rest.
 */

export interface RadioButtonsElement {
  type: "radio_buttons";
  action_id: string;
  options: OptionObject[];
  initial_option?: OptionObject;
}

export interface CheckboxesElement {
  type: "checkboxes";
  action_id: string;
  options: OptionObject[];
  initial_options?: OptionObject[];
}

export interface TimepickerElement {
  type: "timepicker";
  action_id: string;
  initial_time?: string;
  placeholder?: PlainText;
}

export interface ConversationsSelectElement {
  type: "conversations_select";
  action_id: string;
  placeholder: PlainText;
  initial_conversation?: string;
  filter: { include: ("public" | "private")[]; exclude_bot_users: boolean };
}

export interface MultiSelectElement {
  type: "multi_static_select" | "multi_external_select";
  action_id: string;
  placeholder: PlainText;
  options?: OptionObject[];
  initial_options?: OptionObject[];
  min_query_length?: number;
  max_selected_items?: number;
}

export interface PlainInputElement {
  type: "plain_text_input";
  action_id: string;
  initial_value?: string;
  placeholder?: PlainText;
  max_length?: number;
}

export type ModalInputElement =
  | RadioButtonsElement
  | CheckboxesElement
  | TimepickerElement
  | ConversationsSelectElement
  | MultiSelectElement
  | PlainInputElement
  | {
      type: "static_select";
      action_id: string;
      placeholder: PlainText;
      options?: OptionObject[];
      option_groups?: { label: PlainText; options: OptionObject[] }[];
      initial_option?: OptionObject;
    };

export interface ModalInputBlock {
  type: "input";
  block_id: string;
  label: PlainText;
  element: ModalInputElement;
  hint?: PlainText;
  optional?: boolean;
  /** Sends a block action on change, so the preview of the next runs can be redrawn. */
  dispatch_action?: boolean;
}

const option = (text: string, value: string): OptionObject => ({
  text: plain(text, LIMITS.optionText),
  value,
});

const DAY_NAMES: Record<Weekday, string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};

export const FREQUENCY_OPTIONS = [
  option("Hourly", "hourly"),
  option("Daily", "daily"),
  option("Weekdays (Monday to Friday)", "weekdays"),
  option("Weekly, on the days below", "weekly"),
  option("Monthly, on the day below", "monthly"),
  option("Quarterly, on the day below", "quarterly"),
  option("Cron expression", "cron"),
];

const NTHS: [Nth, string][] = [
  [1, "First"],
  [2, "Second"],
  [3, "Third"],
  [4, "Fourth"],
  ["last", "Last"],
];

/**
 * The days a monthly or quarterly schedule can run on, in three groups (68 options, within a select's
 * 100): the day of the month, the nth weekday, the first or last working day. Values are the month
 * day's canonical text.
 */
export const MONTH_DAY_GROUPS: { label: PlainText; options: OptionObject[] }[] = [
  {
    label: plain("Day of the month", LIMITS.optionText),
    options: Array.from({ length: 31 }, (_, i) => {
      const on = { kind: "day" as const, day: i + 1 };
      return option(
        on.day >= 29 ? `${ordinal(on.day)} (or the month's last day)` : ordinal(on.day),
        monthDayText(on),
      );
    }),
  },
  {
    label: plain("Weekday of the month", LIMITS.optionText),
    options: NTHS.flatMap(([nth, word]) =>
      (Object.keys(DAY_NAMES) as Weekday[]).map((weekday) =>
        option(`${word} ${DAY_NAMES[weekday]}`, monthDayText({ kind: "weekday", nth, weekday })),
      ),
    ),
  },
  {
    label: plain("Working day (Mon–Fri)", LIMITS.optionText),
    options: (["first", "last"] as const).map((which) =>
      option(`${which === "first" ? "First" : "Last"} working day`, monthDayText({ kind: "workday", which })),
    ),
  },
];

export const MODE_OPTIONS = [
  option("A digest each run (only when the condition holds, if one is set)", "digest"),
  option("An alert: one message when it starts, updated as it changes", "alert"),
];

/** The chart choices; "default" leaves the subscription to the workspace's setting. */
export const CHART_OPTIONS = [
  option("The workspace's setting", "default"),
  option("Drawn by Slack: a chart and a table", "native"),
  option("An image (uploaded PNG)", "png"),
  option("None: numbers and words only", "off"),
];

export const STYLE_OPTIONS = [
  option("A new message each run", "post"),
  option("One message a day, updated in place", "update"),
  option("Replies in one thread, the top message showing the latest", "thread"),
];

export const DAY_OPTIONS = (Object.keys(DAY_NAMES) as Weekday[]).map((d) => option(DAY_NAMES[d], d));

const RANGES: [string, string][] = [
  ["last7d", "Last 7 days"],
  ["last14d", "Last 14 days"],
  ["last30d", "Last 30 days"],
  ["last90d", "Last 90 days"],
  ["thisweek", "This week so far"],
  ["lastweek", "Last week"],
  ["yesterday", "Yesterday"],
  ["thismonth", "This month so far"],
  ["lastmonth", "Last month"],
  ["thisquarter", "This quarter so far"],
  ["lastquarter", "Last quarter"],
  ["ytd", "Year to date"],
];

/** The range menu; a range typed in a command that is not a preset keeps its own option. */
export function rangeOptions(current: string): OptionObject[] {
  const list = RANGES.map(([v, t]) => option(t, v));
  if (current && !RANGES.some(([v]) => v === current) && current.length <= LIMITS.optionValue)
    list.push(option(current, current));
  return list;
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/**
 * A filter's multi select: static with every choice up to 100, else type-ahead served by the
 * options endpoint. Chosen ids are pre-selected with their names from `available`.
 */
export function filterSelect(
  kind: "asset" | "scanner",
  available: FilterOption[],
  selected: string[],
  maxSelected: number,
): MultiSelectElement {
  const choices = usableChoices(available);
  const byId = new Map(choices.map((c) => [c.value, c]));
  const initial = selected.flatMap((id) => {
    const c = byId.get(id);
    return c ? [choiceOption(c)] : [];
  });
  const actionId = kind === "asset" ? SUBSCRIBE_FIELD.assets : SUBSCRIBE_FIELD.scanners;
  const words = kind === "asset" ? "assets" : "scanners";
  const element: MultiSelectElement =
    choices.length <= STATIC_MENU_MAX
      ? {
          type: "multi_static_select",
          action_id: actionId,
          placeholder: plain(`All ${words}`, LIMITS.placeholder),
          options: [...choices]
            .sort((a, b) => collator.compare(a.displayValue, b.displayValue))
            .map((c) => choiceOption(c)),
        }
      : {
          type: "multi_external_select",
          action_id: actionId,
          placeholder: plain(`All ${words}; type to search ${choices.length}`, LIMITS.placeholder),
          min_query_length: 1,
        };
  element.max_selected_items = maxSelected;
  if (initial.length > 0) element.initial_options = initial;
  return element;
}
