/**
 * Every Slack identifier the app owns, in one place: templates put them into payloads, handlers
 * register on them, tests assert on them and the manifest names the command. Renaming one here
 * renames it everywhere, so nothing routes by a string literal of its own.
 *
 * Slack's rules they follow: at most 255 characters; `action_id` unique within its block and
 * `block_id` unique within its message or view (so repeated rows, like one per subscription, reuse
 * action ids and carry the subject in the button `value` and a per-row `block_id`).
 */

/** The one slash command. */
export const COMMAND = "/insights" as const;

/** `action_id`s of interactive elements. */
export const ACTION = {
  /** Asset filter: a `static_select` (≤ 100 assets) or an `external_select` served by the options endpoint. */
  assetSelect: "digest_asset",
  /** Scanner filter, same two shapes as the asset select. */
  scannerSelect: "digest_scanner",
  /** Share an ephemeral digest to the channel; value = encoded digest state. */
  share: "digest_share",
  /** Link button to the platform's web app (Slack still sends an action for link buttons). */
  openPlatform: "digest_open_platform",
  /** Opens the connect modal (from App Home or an error message). */
  connect: "connect_open",
  /** Opens the help message. */
  help: "help_open",
  /** Subscription rows: value = subscription id. */
  subscriptionPause: "sub_pause",
  subscriptionResume: "sub_resume",
  subscriptionSend: "sub_send",
  subscriptionEdit: "sub_edit",
  subscriptionDelete: "sub_delete",
  /** Opens the subscribe modal for a new subscription (App Home). */
  subscriptionNew: "sub_new",
  /** Opens the subscribe modal for a personal digest, delivered by DM to whoever clicks (App Home). */
  subscriptionNewPersonal: "sub_personal",
  /** Uploads the digest's daily series as CSV to the conversation; value = encoded digest state. */
  exportCsv: "digest_export",
  /** Next page of the subscription list; value = offset of the first row of that page. */
  subscriptionsPage: "subs_page",
  /** API key input inside the connect modal. */
  apiKeyInput: "api_key",
  /**
   * "Why?" on an on-demand digest: value = encoded digest state. Answered with the same digest plus
   * its drivers and data gaps (src/digests/explain.ts), in place for an ephemeral digest.
   */
  explain: "digest_why",
  /** An alert's message: acknowledge the episode; value = `<subscription id>|<episode>`. */
  alertAcknowledge: "alert_ack",
  /** An alert's message: snooze (a static select: an hour, a day, a week, until it clears); option value = `<subscription id>|<episode>|<h|d|w|c>`. */
  alertSnooze: "alert_snooze",
  /** An alert's message: Why? (the drivers against what it fired on, privately); value = `<subscription id>|<episode>`. */
  alertWhy: "alert_why",
  /** An alert's message: pause the alert; value = `<subscription id>|<episode>`. */
  alertPause: "alert_pause",
  /** An alert's message: "was it useful?" (feedback buttons); value = `<subscription id>|<episode>|<+|->`. */
  alertFeedback: "alert_feedback",
  /** A plain-language answer's Adjust button: value = the reading as the Adjust modal's fields. */
  askAdjust: "ask_adjust",
  /** Confirms a subscription or alert a question proposed: value = the encoded proposal. */
  askConfirm: "ask_confirm",
  /** Opens the subscribe modal filled in with a proposal, to change it before saving. */
  askChange: "ask_change",
} as const;

/**
 * Asset-group buttons of a digest's drivers each need their own `action_id` (they share a block): the
 * prefix, then the button's position (`digest_group_0` …) or `all` for the one that widens back.
 * Value = the encoded digest state narrowed to that group; one handler matches the prefix.
 */
export const GROUP_ACTION_PREFIX = "digest_group_" as const;

/**
 * Range buttons each need their own `action_id` (they share a block); all start with
 * {@link RANGE_ACTION_PREFIX} so one handler can match them with a regular expression.
 */
export const RANGE_ACTION_PREFIX = "digest_range_" as const;

/** The range presets offered as buttons, in display order: canonical range spec → label and action id. */
export const RANGE_PRESETS = [
  { spec: "last7d", label: "Last 7 days", actionId: `${RANGE_ACTION_PREFIX}last7d` },
  { spec: "last30d", label: "Last 30 days", actionId: `${RANGE_ACTION_PREFIX}last30d` },
  { spec: "last90d", label: "Last 90 days", actionId: `${RANGE_ACTION_PREFIX}last90d` },
  { spec: "thisweek", label: "This week", actionId: `${RANGE_ACTION_PREFIX}thisweek` },
  { spec: "lastweek", label: "Last week", actionId: `${RANGE_ACTION_PREFIX}lastweek` },
] as const;

/** `callback_id`s of modals. */
export const CALLBACK = {
  connectModal: "connect_modal",
  subscribeModal: "subscribe_modal",
  /** The Adjust modal of a plain-language answer. */
  askAdjust: "ask_adjust_modal",
} as const;

/**
 * Fixed `block_id`s. The digest's filter block has no fixed id: its `block_id` carries the encoded
 * digest state (templates/state.ts), which is how a select handler learns the range and the other filter.
 */
export const BLOCK = {
  digestHeader: "digest_header",
  digestRange: "digest_range",
  digestLinks: "digest_links",
  digestFooter: "digest_footer",
  /** The drivers section ("Why it changed"), its asset-group buttons, and the data-gap notices. */
  digestDrivers: "digest_drivers",
  digestDriverGroups: "digest_driver_groups",
  digestNotices: "digest_notices",
  /** The trend as a chart Slack draws (data visualization block), and the drivers as a table block. */
  digestChart: "digest_chart",
  digestDriversTable: "digest_drivers_table",
  /** Input block of the API key in the connect modal. */
  apiKey: "api_key",
  /** Prefix of one subscription row's actions block; the subscription id follows. */
  subscriptionRowPrefix: "sub_",
  subscriptionsMore: "subs_more",
  /** The subscribe modal's "next five runs" section. */
  subscribePreview: "sub_preview",
  /** App Home: key status and its Connect button. */
  homeStatus: "home_status",
  /** App Home: the "New subscription" button row. */
  homeNew: "home_new",
  /** App Home: the viewer's own personal digests, and the button that sets one up. */
  homePersonal: "home_personal",
  /** Prefix of one App Home subscription row's actions block; the subscription id follows. */
  homeRowPrefix: "home_sub_",
  /** An alert's message: where the episode stands (firing, acknowledged, snoozed, cleared, paused). */
  alertState: "alert_state",
  /** An alert's message: Acknowledge, Snooze, Why?, Pause. */
  alertControls: "alert_controls",
  /** An alert's message: what moved it, and the buttons that narrow a digest to each contributor. */
  alertDrivers: "alert_drivers",
  alertDriverButtons: "alert_driver_buttons",
  /** An alert's message: the feedback buttons (a context_actions block). */
  alertFeedback: "alert_feedback",
  /** A plain-language answer's "Understood" line and its headline (with the Adjust button). */
  askUnderstood: "ask_understood",
  askHeadline: "ask_headline",
} as const;

/**
 * Inputs of the subscribe modal; each name is both the input's `block_id` and its `action_id`, so a
 * view handler reads `view.state.values[f][f]`.
 */
export const SUBSCRIBE_FIELD = {
  channel: "sub_channel",
  /** hourly / daily / weekdays / weekly / monthly / quarterly / cron (radio buttons). */
  frequency: "sub_frequency",
  /** Weekdays of a weekly schedule (checkboxes). */
  weekday: "sub_weekday",
  /** The day of a monthly or quarterly schedule (static select, option groups). */
  monthDay: "sub_monthday",
  /** A cron expression (plain text), shown for the cron frequency. */
  cron: "sub_cron",
  time: "sub_time",
  timezone: "sub_timezone",
  range: "sub_range",
  /** Asset filter: multi_static_select, or multi_external_select over 100 assets. */
  assets: "sub_assets",
  scanners: "sub_scanners",
  /** "Post only when" (plain text in the condition grammar), optional. */
  condition: "sub_condition",
  /** digest / alert (radio buttons). */
  mode: "sub_mode",
  /** post / update / thread (radio buttons). */
  style: "sub_style",
  /** default / native / png / off (radio buttons): how the digest shows its trend and drivers. */
  chart: "sub_chart",
} as const;

/** Subscribe modal inputs whose changes redraw the "next five runs" section (dispatch_action). */
export const SUBSCRIBE_SCHEDULE_FIELDS = [
  SUBSCRIBE_FIELD.frequency,
  SUBSCRIBE_FIELD.weekday,
  SUBSCRIBE_FIELD.monthDay,
  SUBSCRIBE_FIELD.cron,
  SUBSCRIBE_FIELD.time,
  SUBSCRIBE_FIELD.timezone,
] as const;

/**
 * Inputs of the Adjust modal; each is both the input's `block_id` and its `action_id`, as in the
 * subscribe modal.
 */
export const ASK_FIELD = {
  what: "ask_what",
  metrics: "ask_metrics",
  period: "ask_period",
  compare: "ask_compare",
  assets: "ask_assets",
  scanners: "ask_scanners",
} as const;

/**
 * `callback_id`s of custom steps (manifest.yaml `functions`). Workflows built in Workflow Builder
 * keep naming them, so like action ids they never change.
 */
export const STEP = {
  sendDigest: "send_insights_digest",
} as const;
