import reference from "./reference.json" with { type: "json" };

/**
 * Block Kit limits as Slack documents them for each block, element, composition object and surface.
 * The figures live in reference.json, keyed as Slack's reference pages give them, and are never
 * shared with the app's table (src/blockkit/limit-values.ts): the stand-in must be able to refuse a
 * payload that the app's own checker wrongly lets through. Here they get the checker's names.
 *
 * Lengths are counted in UTF-16 code units, the length of a JSON string as it arrives, which is
 * never fewer than the characters Slack counts; a payload within these is within Slack's.
 */
const R = reference.limits;

export const SLACK_LIMITS = {
  /** Blocks in one message (chat.*, response_url). */
  messageBlocks: R.message.blocks,
  /** Blocks in a modal or Home tab. */
  viewBlocks: R.view.blocks,
  /** A message's top-level `text`; Slack answers `msg_too_long` past it. */
  topLevelText: R.message.text,
  /** Any text object: 1 to 3,000 characters unless its field says less. */
  textObject: R.text_object.text,
  sectionText: R.section.text,
  sectionFields: R.section.fields,
  sectionFieldText: R.section["fields[].text"],
  headerText: R.header.text,
  contextElements: R.context.elements,
  contextText: R.context["elements[].text"],
  actionsElements: R.actions.elements,
  /** context_actions: feedback buttons and icon buttons, messages only. */
  contextActionsElements: R.context_actions.elements,
  feedbackButtonText: Math.min(
    R.feedback_buttons["positive_button.text"],
    R.feedback_buttons["negative_button.text"],
  ),
  feedbackButtonValue: Math.min(
    R.feedback_buttons["positive_button.value"],
    R.feedback_buttons["negative_button.value"],
  ),
  feedbackAccessibilityLabel: R.feedback_buttons.accessibility_label,
  /** block_id, action_id, callback_id and external_id alike. */
  id: Math.min(...Object.values(R.ids)),
  selectOptions: R.select.options,
  selectOptionGroups: R.select.option_groups,
  overflowOptions: R.overflow.options,
  /** Checkboxes and radio buttons. */
  choiceOptions: R["checkboxes, radio_buttons"].options,
  optionText: R.option.text,
  optionValue: R.option.value,
  optionDescription: R.option.description,
  optionGroupLabel: R.option_group.label,
  placeholder: R.select.placeholder,
  buttonText: R.button.text,
  buttonValue: R.button.value,
  buttonAccessibilityLabel: R.button.accessibility_label,
  url: Math.min(R.button.url, R.option.url, R.image.image_url),
  imageAltText: R.image.alt_text,
  imageTitle: R.image.title,
  inputLabel: R.input.label,
  inputHint: R.input.hint,
  /** plain_text_input `min_length` / `max_length` ceiling, and so the longest initial value. */
  inputLength: R.plain_text_input.max_length,
  markdownBlockText: R.markdown.text,
  /** All markdown blocks of one payload together. */
  markdownTotal: R.markdown["text of all markdown blocks"],
  confirmTitle: R.confirm.title,
  confirmText: R.confirm.text,
  confirmButton: Math.min(R.confirm.confirm, R.confirm.deny),
  modalTitle: R.view.title,
  modalButton: Math.min(R.view.submit, R.view.close),
  privateMetadata: R.view.private_metadata,
  /** Data visualization block: its title, series per chart, points per series, segments of a pie. */
  chartTitle: R.data_visualization.title,
  chartSeries: R.data_visualization["chart.series"],
  chartPoints: R.data_visualization["series[].data"],
  chartSegments: R.data_visualization["chart.segments"],
  /** A series name, a point's or a segment's label, a category. */
  chartLabel: Math.min(
    R.data_visualization["series[].name"],
    R.data_visualization["data[].label"],
    R.data_visualization["axis_config.categories[]"],
    R.data_visualization["segments[].label"],
  ),
  chartAxisLabel: Math.min(
    R.data_visualization["axis_config.x_label"],
    R.data_visualization["axis_config.y_label"],
  ),
  chartsPerMessage: R.data_visualization["blocks per message"],
  tableRows: R.table.rows,
  tableCells: R.table["rows[]"],
  tableColumnSettings: R.table.column_settings,
  tablesPerMessage: R.table["blocks per message"],
  dataTableRows: R.data_table.rows,
  dataTableMinRows: R.data_table["rows (min)"],
  dataTableColumns: R.data_table.columns,
  dataTablePageSize: R.data_table.page_size,
  dataTableCellText: R.data_table["characters of all cells"],
};

export type SlackLimitName = keyof typeof SLACK_LIMITS;
