import { FIXED_RANGES } from "../../../commands/grammar.ts";
import { seededRandom } from "../../../sandbox/analytics/hash.ts";
import {
  ACTION,
  CALLBACK,
  SUBSCRIBE_FIELD as F,
  GROUP_ACTION_PREFIX,
  RANGE_PRESETS,
} from "../../../src/ids.ts";
import { encodeMeta, signature } from "../../../src/slack/subscriptions/modal-state.ts";
import { STATIC_MENU_MAX } from "../../../templates/filter-menu.ts";
import { encodeState } from "../../../templates/state.ts";
import type { ActionSpec, OptionsSpec, RequestSpec, ViewSpec } from "./requests.ts";
import type { BenchWorkspace } from "./world.ts";

/**
 * The realistic mix the ack section sends: many workspaces and people, each request one of
 *   - a slash command: a range (presets, `lastNd`, calendar ranges, an explicit span), a third of
 *     them with an asset or scanner filter;
 *   - a click on a private digest's controls: a range button, the asset menu, Why?, an asset group;
 *     in a large account's asset menu (a search), half of the uses are a keystroke (type-ahead);
 *   - a subscribe modal submission: a valid channel subscription from an admin, one with a bad time
 *     (a field error), or one from a member (refused on the field).
 * Deterministic (a seeded generator), so runs and machines compare.
 */

export type MixKind = "mix" | "commands" | "buttons";

/** The bare command (the default range) and every named range the grammar knows. */
const RANGES = ["", ...FIXED_RANGES];

function span(now: Date, r: () => number): string {
  const day = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString().slice(0, 10);
  const end = 1 + Math.floor(r() * 20);
  return `${day(end + 3 + Math.floor(r() * 25))}..${day(end)}`;
}

function commandText(w: BenchWorkspace, r: () => number, now: Date): string {
  const pick = r();
  const range = pick < 0.85 ? (RANGES[Math.floor(r() * RANGES.length)] as string) : span(now, r);
  const filtered = r();
  if (filtered < 0.2 && w.assets.length > 0) {
    const a = w.assets[Math.floor(r() * w.assets.length)] as { name: string };
    return `${range} asset:"${a.name}"`.trim();
  }
  if (filtered < 0.33 && w.scanners.length > 0) {
    const s = w.scanners[Math.floor(r() * w.scanners.length)] as { id: string };
    return `${range} scanner:${s.id}`.trim();
  }
  return range;
}

function click(w: BenchWorkspace, userId: string, r: () => number): ActionSpec | OptionsSpec {
  const who = { kind: "action" as const, teamId: w.teamId, userId, channelId: w.channelId };
  const preset = RANGE_PRESETS[Math.floor(r() * RANGE_PRESETS.length)] as (typeof RANGE_PRESETS)[number];
  const state = { range: preset.spec, assetIds: [], scannerIds: [] };
  const pick = r();
  if (pick < 0.33)
    return {
      ...who,
      label: "range",
      action: {
        type: "button",
        action_id: preset.actionId,
        block_id: "digest_ranges",
        value: encodeState(state),
      },
    };
  if (pick < 0.6) {
    const a = w.assets[Math.floor(r() * w.assets.length)] as { id: string; name: string };
    // A large account's asset menu is a search: half of its uses here are a keystroke in it (the
    // first one to four letters of a name), answered by the web process in its ack.
    if (w.assets.length > STATIC_MENU_MAX && r() < 0.5)
      return {
        ...who,
        kind: "options",
        label: "type-ahead",
        actionId: ACTION.assetSelect,
        blockId: encodeState(state),
        value: a.name.slice(0, 1 + Math.floor(r() * 4)),
      };
    return {
      ...who,
      label: "asset",
      action: {
        type: "static_select",
        action_id: ACTION.assetSelect,
        block_id: encodeState(state),
        selected_option: { text: { type: "plain_text", text: a.name.slice(0, 75) }, value: a.id },
      },
    };
  }
  if (pick < 0.82)
    return {
      ...who,
      label: "why",
      action: {
        type: "button",
        action_id: ACTION.explain,
        block_id: "digest_actions",
        value: encodeState(state),
      },
    };
  const g = w.groups[Math.floor(r() * w.groups.length)] as string;
  return {
    ...who,
    label: "group",
    action: {
      type: "button",
      action_id: `${GROUP_ACTION_PREFIX}0`,
      block_id: "digest_driver_groups",
      value: encodeState({ ...state, assetGroups: [g] }),
    },
  };
}

const MODAL_BLOCKS = [F.channel, F.frequency, F.weekday, F.time, F.timezone, F.range];

function submission(w: BenchWorkspace, userId: string, r: () => number): ViewSpec {
  const admin = w.admins.includes(userId);
  const badTime = r() < 0.4;
  const time = badTime ? "" : `${String(6 + Math.floor(r() * 12)).padStart(2, "0")}:00`;
  const form = {
    channelId: w.channelId,
    frequency: "weekly" as const,
    days: ["mon" as const],
    cron: "",
    time: time || "09:00",
    tz: "UTC",
    range: "last7d",
    assetIds: [],
    scannerIds: [],
    condition: "",
    mode: "digest" as const,
    style: "post" as const,
  };
  const values = {
    [F.channel]: { [F.channel]: { type: "conversations_select", selected_conversation: w.channelId } },
    [F.frequency]: { [F.frequency]: { type: "radio_buttons", selected_option: { value: "weekly" } } },
    [F.weekday]: { [F.weekday]: { type: "checkboxes", selected_options: [{ value: "mon" }] } },
    [F.time]: { [F.time]: { type: "timepicker", selected_time: badTime ? "25:00" : time } },
    [F.timezone]: { [F.timezone]: { type: "plain_text_input", value: "UTC" } },
    [F.range]: { [F.range]: { type: "static_select", selected_option: { value: "last7d" } } },
  };
  return {
    kind: "view",
    label: badTime ? "modal (field error)" : admin ? "modal" : "modal (refused)",
    teamId: w.teamId,
    userId,
    channelId: w.channelId,
    callbackId: CALLBACK.subscribeModal,
    privateMetadata: encodeMeta({ origin: w.channelId, shown: signature(form) }),
    values,
    blockIds: MODAL_BLOCKS,
  };
}

/**
 * `n` requests over `workspaces` (every workspace and person takes turns, so the first pass over
 * the mix meets every cache cold), in the proportions above; `kind` narrows it to commands or clicks.
 */
export function buildMix(
  workspaces: BenchWorkspace[],
  n: number,
  kind: MixKind,
  now = new Date(),
): RequestSpec[] {
  const r = seededRandom(26);
  const out: RequestSpec[] = [];
  for (let i = 0; i < n; i++) {
    const w = workspaces[i % workspaces.length] as BenchWorkspace;
    const userId = w.users[Math.floor(i / workspaces.length) % w.users.length] as string;
    const pick = kind === "commands" ? 0 : kind === "buttons" ? 0.7 : r();
    // A modal is submitted by someone who used the app before (opening it looked them up).
    const returning = i >= workspaces.length * w.users.length;
    if (pick < 0.6 || (pick >= 0.97 && !returning))
      out.push({
        kind: "command",
        teamId: w.teamId,
        userId,
        channelId: w.channelId,
        text: commandText(w, r, now),
      });
    else if (pick < 0.97 || kind === "buttons") out.push(click(w, userId, r));
    else out.push(submission(w, userId, r));
  }
  return out;
}
