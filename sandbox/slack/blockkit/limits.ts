/**
 * Block Kit limits as Slack documents them for each block, element and composition object, written
 * down here on their own and never shared with the app's table (src/blockkit/limit-values.ts): the
 * stand-in must be able to refuse a payload that the app's own checker wrongly lets through.
 *
 * Lengths are counted in UTF-16 code units, the length of a JSON string as it arrives, which is
 * never fewer than the characters Slack counts; a payload within these is within Slack's.
 */
export const SLACK_LIMITS = {
  /** Blocks in one message (chat.*, response_url). */
  messageBlocks: 50,
  /** Blocks in a modal or Home tab. */
  viewBlocks: 100,
  /** A message's top-level `text`; Slack answers `msg_too_long` past it. */
  topLevelText: 40_000,
  /** Any text object: 1 to 3,000 characters unless its field says less. */
  textObject: 3_000,
  sectionText: 3_000,
  sectionFields: 10,
  sectionFieldText: 2_000,
  headerText: 150,
  contextElements: 10,
  contextText: 3_000,
  actionsElements: 25,
  /** block_id, action_id, callback_id and external_id. */
  id: 255,
  selectOptions: 100,
  selectOptionGroups: 100,
  overflowOptions: 5,
  /** Checkboxes and radio buttons. */
  choiceOptions: 10,
  optionText: 75,
  optionValue: 150,
  optionDescription: 75,
  optionGroupLabel: 75,
  placeholder: 150,
  buttonText: 75,
  buttonValue: 2_000,
  buttonAccessibilityLabel: 75,
  url: 3_000,
  imageAltText: 2_000,
  imageTitle: 2_000,
  inputLabel: 2_000,
  inputHint: 2_000,
  /** plain_text_input `min_length` / `max_length` ceiling, and so the longest initial value. */
  inputLength: 3_000,
  markdownBlockText: 12_000,
  /** All markdown blocks of one payload together. */
  markdownTotal: 12_000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3_000,
} as const;

export type SlackLimitName = keyof typeof SLACK_LIMITS;
