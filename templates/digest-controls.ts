import { LIMITS, messageTextLength } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, plain, truncate } from "../src/blockkit/text.ts";
import type { ActionElement, Block, ButtonElement, ImageBlock } from "../src/blockkit/types.ts";
import { ACTION, BLOCK, COMMAND, RANGE_PRESETS } from "../src/ids.ts";
import type { DigestView } from "../src/insights/types.ts";
import { filterMenu } from "./filter-menu.ts";
import { slackDate } from "./format.ts";
import { type DigestState, encodeStateWithin } from "./state.ts";

/** The interactive part of the digest: chart, filter menus, range buttons, share and link, footer. */

export function stateOf(view: DigestView): DigestState {
  const state: DigestState = {
    range: view.digest.range.spec,
    assetIds: view.filters.selectedAssetIds,
    scannerIds: view.filters.selectedScannerIds,
  };
  const groups = view.filters.selectedGroups ?? [];
  if (groups.length > 0) state.assetGroups = groups;
  return state;
}

export function chartBlock(view: DigestView): ImageBlock | null {
  const chart = view.chart;
  if (!chart) return null;
  const alt = truncate(chart.altText.trim() || "Daily trend chart", LIMITS.imageAltText);
  const title = plain("Daily trend", LIMITS.imageTitle);
  if (chart.imageUrl && isWebUrl(chart.imageUrl))
    return { type: "image", image_url: chart.imageUrl, alt_text: alt, title };
  if (chart.slackFileId)
    return { type: "image", slack_file: { id: chart.slackFileId }, alt_text: alt, title };
  return null;
}

/** Fixed text of one menu besides its names: placeholder, "All …", "Clear filter". */
const MENU_OVERHEAD = 100;

function menuText(menu: ActionElement): number {
  return messageTextLength({ blocks: [{ type: "actions", elements: [menu] }] });
}

/**
 * The asset and scanner menus, sharing `textBudget` characters (scanners, usually few, first). Their
 * block's `block_id` carries the digest state, which is how a menu handler learns the range and the
 * other filter (an option value holds only one id).
 */
export function filterBlock(view: DigestView, textBudget: number): Block {
  const { assets, scanners, selectedAssetIds, selectedScannerIds } = view.filters;
  const scannerMenu = scanners
    ? filterMenu("scanner", scanners, selectedScannerIds, textBudget / 3 - MENU_OVERHEAD)
    : null;
  const left = textBudget - (scannerMenu ? menuText(scannerMenu) : 0);
  const assetMenu = assets ? filterMenu("asset", assets, selectedAssetIds, left - MENU_OVERHEAD) : null;
  const menus = [assetMenu, scannerMenu].filter((m) => m !== null);
  if (menus.length === 0) {
    const why =
      assets === null && scanners === null
        ? "Filters are not available from this analytics endpoint."
        : "There are no assets or scanners to filter by yet.";
    return { type: "context", elements: [mrkdwn(why)] };
  }
  // Without the asset groups: a pick from the menu replaces a group narrowing rather than adding to it.
  const { assetGroups: _groups, ...menuState } = stateOf(view);
  return { type: "actions", block_id: encodeStateWithin(menuState, LIMITS.id), elements: menus };
}

/** Range presets, the current one highlighted; each button's value is the state with its range. */
export function rangeBlock(view: DigestView): Block {
  const state = stateOf(view);
  const elements = RANGE_PRESETS.map((p) => {
    const button: ButtonElement = {
      type: "button",
      action_id: p.actionId,
      text: plain(p.label, LIMITS.buttonText),
      value: encodeStateWithin({ ...state, range: p.spec }, LIMITS.buttonValue),
    };
    if (p.spec === state.range) button.style = "primary";
    return button;
  });
  return { type: "actions", block_id: BLOCK.digestRange, elements };
}

function isWebUrl(url: string): boolean {
  return /^https?:\/\/[^\s<>|]+$/i.test(url) && url.length <= LIMITS.url;
}

/** A button carrying the digest's state (range, filters) under `actionId`. */
const stateButton = (actionId: string, label: string, value: string): ButtonElement => ({
  type: "button",
  action_id: actionId,
  text: plain(label, LIMITS.buttonText),
  value,
});

/** Export CSV: the same range and filters as a file, one row per day (digests and alerts alike). */
export const exportCsvButton = (view: DigestView): ButtonElement =>
  stateButton(ACTION.exportCsv, "Export CSV", encodeStateWithin(stateOf(view), LIMITS.buttonValue));

/** Why? (on-demand digests), Share (ephemeral replies only), Export CSV and the platform link (when known). */
export function linksBlock(view: DigestView): Block | null {
  const value = encodeStateWithin(stateOf(view), LIMITS.buttonValue);
  const elements: ButtonElement[] = [];
  if (view.explainable && !view.drivers) elements.push(stateButton(ACTION.explain, "Why?", value));
  if (view.shareable) elements.push(stateButton(ACTION.share, "Share to channel", value));
  // Every digest's numbers can leave as a file: the same range and filters, one row per day.
  elements.push(stateButton(ACTION.exportCsv, "Export CSV", value));
  if (view.platformUrl && isWebUrl(view.platformUrl))
    elements.push({
      type: "button",
      action_id: ACTION.openPlatform,
      text: plain("Open in platform", LIMITS.buttonText),
      url: view.platformUrl,
    });
  return elements.length > 0 ? { type: "actions", block_id: BLOCK.digestLinks, elements } : null;
}

/**
 * Keeps only single-user mentions (`<@U…>`, so "Shared by @ana" renders) and escapes everything
 * else: an attribution can never carry `<!channel>` or a disguised link.
 */
export function escapeAttribution(text: string): string {
  return escapeMrkdwn(text).replace(/&lt;@([UW][A-Z0-9]{2,20})&gt;/g, "<@$1>");
}

/** Data time (in each reader's timezone), attribution and where to find help. */
export function footerBlock(view: DigestView): Block {
  const when = slackDate(view.generatedAt) ?? escapeMrkdwn(truncate(view.generatedAt, 40));
  const parts = [`Data as of ${when}`];
  if (view.attribution?.trim()) parts.push(escapeAttribution(truncate(view.attribution.trim(), 300)));
  parts.push(`\`${COMMAND} help\` for more`);
  return { type: "context", block_id: BLOCK.digestFooter, elements: [mrkdwn(parts.join(" · "))] };
}
