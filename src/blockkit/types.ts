/**
 * The slice of Block Kit the templates build. Our own small types rather than `@slack/types`, so the
 * pure layer (and the Slack stand-in that validates with it) depends on nothing.
 */

export interface PlainText {
  type: "plain_text";
  text: string;
  emoji?: boolean;
}

export interface Mrkdwn {
  type: "mrkdwn";
  text: string;
  /** true: Slack does not auto-link URLs, channel names or mentions in this text. */
  verbatim?: boolean;
}

export type TextObject = PlainText | Mrkdwn;

export interface OptionObject {
  text: PlainText;
  value: string;
  description?: PlainText;
}

export interface OptionGroup {
  label: PlainText;
  options: OptionObject[];
}

export interface ConfirmObject {
  title: PlainText;
  text: TextObject;
  confirm: PlainText;
  deny: PlainText;
  style?: "primary" | "danger";
}

export interface ButtonElement {
  type: "button";
  text: PlainText;
  action_id: string;
  value?: string;
  url?: string;
  style?: "primary" | "danger";
  confirm?: ConfirmObject;
  accessibility_label?: string;
}

export interface StaticSelectElement {
  type: "static_select";
  action_id: string;
  placeholder: PlainText;
  options?: OptionObject[];
  option_groups?: OptionGroup[];
  initial_option?: OptionObject;
}

export interface ExternalSelectElement {
  type: "external_select";
  action_id: string;
  placeholder: PlainText;
  min_query_length?: number;
  initial_option?: OptionObject;
}

export interface PlainTextInputElement {
  type: "plain_text_input";
  action_id: string;
  placeholder?: PlainText;
  initial_value?: string;
  multiline?: boolean;
  min_length?: number;
  max_length?: number;
}

export interface ImageElement {
  type: "image";
  image_url: string;
  alt_text: string;
}

export type ActionElement = ButtonElement | StaticSelectElement | ExternalSelectElement;

export interface HeaderBlock {
  type: "header";
  block_id?: string;
  text: PlainText;
}

export interface SectionBlock {
  type: "section";
  block_id?: string;
  text?: TextObject;
  fields?: TextObject[];
  accessory?: ActionElement | ImageElement;
}

export interface ContextBlock {
  type: "context";
  block_id?: string;
  elements: (TextObject | ImageElement)[];
}

export interface DividerBlock {
  type: "divider";
  block_id?: string;
}

export interface ActionsBlock {
  type: "actions";
  block_id?: string;
  elements: ActionElement[];
}

export interface ImageBlock {
  type: "image";
  block_id?: string;
  alt_text: string;
  image_url?: string;
  slack_file?: { id: string } | { url: string };
  title?: PlainText;
}

export interface InputBlock {
  type: "input";
  block_id?: string;
  label: PlainText;
  element: PlainTextInputElement | StaticSelectElement | ExternalSelectElement;
  hint?: PlainText;
  optional?: boolean;
}

/** One point of a chart series: `label` is one of the axis categories. */
export interface ChartPoint {
  label: string;
  value: number;
}

export interface ChartSeries {
  /** Shown in the legend; unique within the chart. */
  name: string;
  /** Exactly one point per category, in category order. */
  data: ChartPoint[];
}

/** A line, bar or area chart Slack draws itself (the data visualization block). */
export interface DataVisualizationBlock {
  type: "data_visualization";
  block_id?: string;
  title: string;
  chart: {
    type: "line" | "bar" | "area";
    series: ChartSeries[];
    axis_config: { categories: string[]; x_label?: string; y_label?: string };
  };
}

/** A table cell: plain text (Slack does not take number cells from apps). */
export interface RawTextCell {
  type: "raw_text";
  text: string;
}

export interface TableBlock {
  type: "table";
  block_id?: string;
  /** The first row is the header by convention; every row has the same number of cells. */
  rows: RawTextCell[][];
  column_settings?: ({ align?: "left" | "center" | "right"; is_wrapped?: boolean } | null)[];
}

/** One of a feedback element's two buttons. */
export interface FeedbackButton {
  text: PlainText;
  value: string;
  accessibility_label?: string;
}

/** A thumbs up and a thumbs down; Slack shows which one the reader chose. Only in context_actions. */
export interface FeedbackButtonsElement {
  type: "feedback_buttons";
  action_id: string;
  positive_button: FeedbackButton;
  negative_button: FeedbackButton;
}

/** Small actions shown as context under a message (feedback buttons). */
export interface ContextActionsBlock {
  type: "context_actions";
  block_id?: string;
  elements: FeedbackButtonsElement[];
}

export type Block =
  | ContextActionsBlock
  | HeaderBlock
  | SectionBlock
  | ContextBlock
  | DividerBlock
  | ActionsBlock
  | ImageBlock
  | InputBlock
  | DataVisualizationBlock
  | TableBlock;

/** A message payload: blocks plus the top-level `text` Slack uses for notifications and screen readers. */
export interface Message {
  blocks: Block[];
  text: string;
}

export interface ModalView {
  type: "modal";
  callback_id: string;
  title: PlainText;
  submit?: PlainText;
  close?: PlainText;
  blocks: Block[];
  private_metadata?: string;
  external_id?: string;
}
