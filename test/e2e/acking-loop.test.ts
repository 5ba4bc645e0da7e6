import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { accountFor, DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { ACTION, GROUP_ACTION_PREFIX, RANGE_ACTION_PREFIX, STEP } from "../../src/ids.ts";
import { streamKey } from "../../src/interactive/stream.ts";
import { encodeState } from "../../templates/state.ts";
import { useFileStack, who } from "./helpers.ts";

/**
 * No listener computes a digest, drivers, a chart, an unfurl or a step's output on the event loop
 * that acks Slack's requests. The app runs as web + worker with no worker running, and the analytics
 * service stalls every request for 20 s: a listener that built anything where the request arrives
 * would ask the service (the caches are empty) and could not ack before it answered. Every request
 * is acked at once, the service hears nothing, and each one waits in the hand-off stream. (Type-ahead
 * answers in its ack by design, from the lists a digest left in Redis, within its 2.5 s budget.)
 */

const stack = useFileStack(`e2e-ackloop-${process.pid}`, {
  interactive: "queue",
  connect: true,
  unlimited: true,
});
afterAll(() => stack.emulator?.clearFaults());

const STALL_MS = 20_000;
/** Far below the stall: an ack that waited for the service would take the whole 20 s. */
const ACK_BOUND_MS = 2_000;

const ids = JSON.parse(readFileSync(new URL("../fixtures/slack-ids.json", import.meta.url), "utf8")) as {
  routed: { action: string[] };
};

/** Clicks that ask for digest work (the subscription rows and modal inputs are other tests' matter). */
function digestClicks(): Record<string, unknown>[] {
  const account = accountFor(DEMO_API_KEY);
  const state = encodeState({ range: "last7d", assetIds: [], scannerIds: [] });
  const out: Record<string, unknown>[] = [];
  for (const id of ids.routed.action) {
    if (id.startsWith(RANGE_ACTION_PREFIX)) out.push({ type: "button", action_id: id, value: state });
    else if (id.startsWith(GROUP_ACTION_PREFIX))
      out.push({
        type: "button",
        action_id: id,
        value: encodeState({ range: "last7d", assetIds: [], scannerIds: [], assetGroups: ["payments"] }),
      });
  }
  out.push(
    { type: "button", action_id: ACTION.explain, value: state },
    { type: "button", action_id: ACTION.share, value: state },
    { type: "button", action_id: ACTION.exportCsv, value: state },
    {
      type: "static_select",
      action_id: ACTION.assetSelect,
      block_id: state,
      selected_option: { value: account?.assets[0]?.value },
    },
    {
      type: "static_select",
      action_id: ACTION.scannerSelect,
      block_id: state,
      selected_option: { value: account?.scanners[0]?.value },
    },
  );
  return out.map((a) => ({ block_id: "b", action_ts: `${Date.now() / 1000}`, ...a }));
}

describe("the acking loop computes nothing", () => {
  it("with the analytics service stalled and no worker, every digest request is acked at once and asks the service nothing", async () => {
    stack.emulator.inject({ kind: "latency", ms: STALL_MS }, 10_000);
    const asked = stack.emulator.requestCount();
    const acks: [string, number, number][] = [];
    const note = (what: string, r: { status: number; ackMs: number }) => acks.push([what, r.status, r.ackMs]);
    const texts = [
      "",
      "last7d",
      "last30d scanner:sast",
      'lastmonth asset:"payments / api"',
      "thisweek",
      "export last7d",
      "status",
      "subscriptions",
    ];
    for (const text of texts) note(`/insights ${text}`, await stack.slack.sendCommand({ ...who(), text }));
    for (const action of digestClicks())
      note(
        String(action.action_id),
        await stack.slack.sendBlockAction({ ...who(), container: { is_ephemeral: true }, actions: [action] }),
      );
    const platform = stack.emulator.appUrl;
    const shared = await stack.slack.postLinks({
      ...who(),
      text: `numbers: <${platform}/dashboard?range=last30d>`,
    });
    note("link_shared", shared.delivered as { status: number; ackMs: number });
    note(
      "app_home_opened",
      await stack.slack.sendEvent({
        teamId: DEMO.teamId,
        event: { type: "app_home_opened", user: DEMO.member, channel: "D0HOME0001", tab: "home" },
      }),
    );
    note(
      "send_insights_digest",
      await stack.slack.executeStep({
        teamId: DEMO.teamId,
        callbackId: STEP.sendDigest,
        inputs: { channel_id: DEMO.general },
      }),
    );
    expect(acks.filter(([, status]) => status !== 200)).toEqual([]);
    expect(acks.filter(([, , ms]) => ms >= ACK_BOUND_MS)).toEqual([]);
    // Nothing was built where the requests arrived: the service was asked nothing at all.
    expect(stack.emulator.requestCount()).toBe(asked);
    // Each request waits in the hand-off stream for a worker.
    const waiting = await stack.redis.xlen(streamKey(stack.config.queuePrefix, stack.interactiveQueue));
    expect(waiting).toBe(acks.length);
  });
});
