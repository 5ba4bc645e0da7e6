/**
 * The element types Slack defines, the properties each may carry, and where each may sit: Slack
 * refuses an element with a property it does not define, or in a place it does not belong.
 */

/** Where an element sits decides which types Slack accepts there. */
export type Place = "actions" | "accessory" | "input";

export const COMMON = ["type", "action_id"];
const SELECT = ["placeholder", "confirm", "focus_on_load"];
const MULTI = [...SELECT, "max_selected_items"];
const TEXT_INPUT = ["placeholder", "initial_value", "dispatch_action_config", "focus_on_load"];

/** Properties of each element type Slack defines. */
export const ELEMENTS: Record<string, readonly string[]> = {
  button: ["text", "url", "value", "style", "confirm", "accessibility_label"],
  overflow: ["options", "confirm"],
  static_select: [...SELECT, "options", "option_groups", "initial_option"],
  multi_static_select: [...MULTI, "options", "option_groups", "initial_options"],
  external_select: [...SELECT, "initial_option", "min_query_length"],
  multi_external_select: [...MULTI, "initial_options", "min_query_length"],
  users_select: [...SELECT, "initial_user"],
  multi_users_select: [...MULTI, "initial_users"],
  conversations_select: [
    ...SELECT,
    "initial_conversation",
    "default_to_current_conversation",
    "response_url_enabled",
    "filter",
  ],
  multi_conversations_select: [
    ...MULTI,
    "initial_conversations",
    "default_to_current_conversation",
    "filter",
  ],
  channels_select: [...SELECT, "initial_channel", "response_url_enabled"],
  multi_channels_select: [...MULTI, "initial_channels"],
  checkboxes: ["options", "initial_options", "confirm", "focus_on_load"],
  radio_buttons: ["options", "initial_option", "confirm", "focus_on_load"],
  datepicker: ["initial_date", "placeholder", "confirm", "focus_on_load"],
  timepicker: ["initial_time", "placeholder", "confirm", "focus_on_load", "timezone"],
  datetimepicker: ["initial_date_time", "confirm", "focus_on_load"],
  plain_text_input: [...TEXT_INPUT, "multiline", "min_length", "max_length"],
  email_text_input: TEXT_INPUT,
  url_text_input: TEXT_INPUT,
  number_text_input: [...TEXT_INPUT, "is_decimal_allowed", "min_value", "max_value"],
  rich_text_input: [...TEXT_INPUT],
  file_input: ["filetypes", "max_files"],
  image: ["image_url", "slack_file", "alt_text"],
};

export const INPUT_ONLY = new Set([
  "plain_text_input",
  "email_text_input",
  "url_text_input",
  "number_text_input",
  "rich_text_input",
  "file_input",
]);

export function allowedAt(type: string, place: Place): boolean {
  if (!(type in ELEMENTS)) return false;
  if (place === "input") return type !== "button" && type !== "overflow" && type !== "image";
  if (INPUT_ONLY.has(type)) return false;
  return place === "accessory" || type !== "image";
}
