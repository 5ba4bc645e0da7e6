import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { accountFor, DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { encodeAdjust } from "../../src/ask/adjust.ts";
import { encodeProposal, proposalOf } from "../../src/ask/proposal.ts";
import { readQuestion } from "../../src/ask/read.ts";
import {
  ACTION,
  ASK_FIELD,
  CALLBACK,
  GROUP_ACTION_PREFIX,
  RANGE_ACTION_PREFIX,
  STEP,
} from "../../src/ids.ts";
import { streamKey } from "../../src/interactive/stream.ts";
import { encodeState } from "../../templates/state.ts";
import { useFileStack, who } from "./helpers.ts";

/**
 * No listener computes a digest, drivers, a chart, an unfurl or a step's output on the event loop
 * that acks Slack's requests. The app runs as web + worker with no worker running, and the analytics
 * service stalls every request for 20 s: a listener that built anything where the request arrives
 * would ask the service (the caches are empty) and could not ack before it answered. Every request
 * — commands, digest and alert controls, Confirm on a proposal, an unfurl, the Home tab, a workflow
 * step, a question in the DM or a mention, the Adjust modal's work — is acked at once, the service
 * hears nothing, and each one waits in the hand-off stream. (Type-ahead answers in its ack by design,
 * from the lists a digest left in Redis, within its 2.5 s budget; Adjust's button opens its modal
 * where it is acked, as the inline list in test/unit/inline-entries.test.ts says.)
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
  // An alert's controls: Why? computes drivers; the others look the person up, run a script and edit.
  const episode = "sub1|20261124T090000Z";
  out.push(
    { type: "button", action_id: ACTION.alertAcknowledge, value: episode },
    {
      type: "static_select",
      action_id: ACTION.alertSnooze,
      selected_option: { value: `${episode}|d` },
    },
    { type: "button", action_id: ACTION.alertWhy, value: episode },
    { type: "button", action_id: ACTION.alertPause, value: episode },
    { type: "button", action_id: ACTION.alertFeedback, value: `${episode}|+` },
  );
  // Confirm on a subscription a question proposed (resolving its groups may ask the service).
  const reading = readQuestion("send me payments violations every Monday at 9", {
    now: new Date(),
    tz: "UTC",
    assets: account?.assets ?? [],
    scanners: account?.scanners ?? [],
  });
  out.push({
    type: "button",
    action_id: ACTION.askConfirm,
    value: inlineValue(encodeProposal(proposalOf(reading))),
  });
  return out.map((a) => ({ block_id: "b", action_ts: `${Date.now() / 1000}`, ...a }));
}

/** A button's value that fits the button (these tests carry small ones). */
function inlineValue(encoded: { value: string } | { keep: string }): string {
  if (!("value" in encoded)) throw new Error("this value no longer fits its button");
  return encoded.value;
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
    // Questions in plain words: in the app's DM, and a mention in a channel.
    const dm = await stack.slack.sendDm({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      text: "why did violations go up in payments last week?",
    });
    note("message (DM)", dm.delivered as { status: number; ackMs: number });
    const mention = await stack.slack.mention({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      text: `<@${DEMO.botUserId}> findings this month`,
    });
    note("app_mention", mention.delivered as { status: number; ackMs: number });
    // Adjust on an answer opens its modal where it is acked (trigger_id); its submission is answered
    // there and its work, the new answer, is handed off.
    const adjust = await stack.slack.sendBlockAction({
      ...who(),
      channelId: dm.channelId,
      message: { ts: dm.ts },
      actions: [
        {
          type: "button",
          action_id: ACTION.askAdjust,
          block_id: "b",
          value: inlineValue(
            encodeAdjust({
              what: "digest",
              metrics: ["violations"],
              period: "last week",
              compare: "",
              assets: "",
              scanners: "",
            }),
          ),
        },
      ],
    });
    const inlineAcks: [string, number, number][] = [["ask_adjust", adjust.status, adjust.ackMs]];
    const modal = await stack.slack.waitFor(() =>
      stack.slack.views().find((v) => v.view.callback_id === CALLBACK.askAdjust),
    );
    const text = (v: string) => ({ type: "plain_text_input", value: v });
    const submitAdjust = () =>
      stack.slack.sendViewSubmission({
        ...who(),
        view: { id: modal.id },
        values: {
          [ASK_FIELD.what]: {
            [ASK_FIELD.what]: { type: "static_select", selected_option: { value: "drivers" } },
          },
          [ASK_FIELD.metrics]: {
            [ASK_FIELD.metrics]: { type: "checkboxes", selected_options: [{ value: "violations" }] },
          },
          [ASK_FIELD.period]: { [ASK_FIELD.period]: text("last week") },
          [ASK_FIELD.compare]: { [ASK_FIELD.compare]: text("") },
          [ASK_FIELD.assets]: { [ASK_FIELD.assets]: text("") },
          [ASK_FIELD.scanners]: { [ASK_FIELD.scanners]: text("") },
        },
      });
    // No worker ran the member's question, so nobody has looked them up: a submission's answer may not
    // wait on Slack, so the first is asked again and users.info runs after its ack.
    const lookups = () => stack.slack.calls((c) => c.method === "users.info" && c.args.user === DEMO.member);
    expect(lookups()).toEqual([]);
    const first = await submitAdjust();
    inlineAcks.push(["ask_adjust_modal (first)", first.status, first.ackMs]);
    expect(JSON.stringify(first.body)).toContain("I could not check who you are in time");
    await stack.slack.waitFor(() => lookups()[0], { what: "the member looked up after the ack" });
    note("ask_adjust_modal", await submitAdjust());
    expect([...acks, ...inlineAcks].filter(([, status]) => status !== 200)).toEqual([]);
    expect([...acks, ...inlineAcks].filter(([, , ms]) => ms >= ACK_BOUND_MS)).toEqual([]);
    // Each handed-off request waits in the hand-off stream for a worker (a submission's work is
    // handed over just after its answer).
    const key = streamKey(stack.config.queuePrefix, stack.interactiveQueue);
    await stack.slack.waitFor(
      async () => ((await stack.redis.xlen(key)) === acks.length ? true : undefined),
      {
        what: `${acks.length} requests in the hand-off stream`,
      },
    );
    // Nothing was built where the requests arrived: the service was asked nothing at all.
    expect(stack.emulator.requestCount()).toBe(asked);
    const routes = (await stack.redis.xrange(key, "-", "+")).map(
      ([, fields]) => (JSON.parse(fields[1] as string) as { route: { kind: string; id?: string } }).route,
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        { kind: "message", id: "message" },
        { kind: "message", id: "app_mention" },
        { kind: "view", id: CALLBACK.askAdjust },
        { kind: "action", id: ACTION.askConfirm },
        { kind: "action", id: ACTION.alertWhy },
      ]),
    );
  });
});
