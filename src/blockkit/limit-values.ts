/**
 * Block Kit limits. Lengths count UTF-16 code units, which is never fewer than the
 * characters Slack counts, so a payload within these is within Slack's. `optionValue` is 75, the
 * figure the SDK documents, although Slack accepts 150 today.
 */
export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  /** A whole message's text (top-level text plus every text object); Slack starts refusing near here. */
  messageTotalText: 12_000,
  topLevelText: 40_000,
  sectionText: 3_000,
  sectionFields: 10,
  sectionFieldText: 2_000,
  headerText: 150,
  contextElements: 10,
  contextText: 3_000,
  actionsElements: 25,
  contextActionsElements: 5,
  id: 255,
  selectOptions: 100,
  selectOptionGroups: 100,
  overflowOptions: 5,
  choiceOptions: 10,
  optionText: 75,
  optionValue: 75,
  optionDescription: 75,
  optionGroupLabel: 75,
  placeholder: 150,
  buttonText: 75,
  buttonValue: 2_000,
  url: 3_000,
  imageAltText: 2_000,
  imageTitle: 2_000,
  inputLabel: 2_000,
  inputHint: 2_000,
  inputLength: 3_000,
  markdownBlockText: 12_000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3_000,
  /** Data visualization block: title, series per chart, points per series, a name or a label. */
  chartTitle: 50,
  chartSeries: 6,
  chartPoints: 20,
  chartLabel: 20,
  chartAxisLabel: 50,
  /** Slack takes two charts per message; a digest carries one. */
  chartsPerMessage: 1,
  /** Table block: rows, cells per row, column settings; one table per message. */
  tableRows: 100,
  tableCells: 20,
  tableColumnSettings: 20,
  tablesPerMessage: 1,
} as const;
