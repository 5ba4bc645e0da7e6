import { describe, expect, it } from "vitest";
import { SCENARIO_KEYS } from "../../sandbox/analytics/index.ts";
import { chooseOption, clickButton, pressFeedback } from "../../sandbox/slack/index.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { actOnMessage, runPeriod } from "../../sandbox/stack-actions.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { ACTION } from "../../src/ids.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { command, useFileStack } from "./helpers.ts";
import { idIn, REF, textOf } from "./subscriptions-helpers.ts";

/**
 * The controls of an alert's message through the real app (signed requests, the listener frame, the
 * worker, the Slack stand-in): Acknowledge, Snooze and Pause by the alert's owner (an admin here) and
 * refused to a member; double clicks that change nothing twice; Why? (off the acking loop) and "was
 * it useful?" for every reader, with the counts shown in status, the list and the App Home.
 */

const stack: Stack = useFileStack(`e2e-alerts-${process.pid}`, {
  unlimited: true,
  connect: SCENARIO_KEYS.unusualDay,
  // The drivers' year-long slice queries, on a shared 2-core machine, outlast the stack's 1.5 s default.
  env: { ANALYTICS_TIMEOUT_MS: "15000" },
  worker: {
    policy: { attempts: 2, backoffMs: 100 },
    analyticsRetry: { attempts: 1 },
    claims: { leaseMs: 3_000 },
  },
});

const HOUR = 3_600_000;

/** Runs the check of the current hour (what the alert's slot fan-out queues) and waits for its verdict. */
const checkNow = (id: string, channel: string) =>
  runPeriod(stack, id, channel, periodOf(Math.floor(stack.clock().getTime() / HOUR) * HOUR));

/** The alert's top message in `channel`, as it stands now. */
function episodeMessage(channel: string) {
  const m = stack.slack
    .messages(channel)
    .find((x) => x.threadTs === undefined && /Alert:/.test(x.text ?? ""));
  if (!m) throw new Error("no alert message");
  return m;
}
const replies = (channel: string, ts: string) =>
  stack.slack.messages(channel).filter((m) => m.threadTs === ts);
const updates = (ts: string) =>
  stack.slack.calls((c) => c.method === "chat.update" && c.ok && c.args.ts === ts).length;

/** `userId` acts on the alert's message in `channel`; resolves with what the click sent. */
const act = (userId: string, channel: string, action: (blocks: unknown) => unknown) =>
  actOnMessage(stack, userId, channel, episodeMessage(channel).ts, action);

/** The private answer to a click, through its response_url. */
async function answer(sent: { responseUrl?: string }, index = 0) {
  const r = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl ?? "")[index], {
    timeoutMs: 30_000,
    what: "the private answer",
  });
  return textOf(r.body);
}

/** How many charts Slack draws a message carries. */
const chartBlocks = (blocks: unknown) =>
  (blocks as { type: string }[]).filter((b) => b.type === "data_visualization").length;

const settle = () => new Promise((r) => setTimeout(r, 400));

/**
 * The thread replies `clicks` caused on the message `ts`: waits for the first, then a moment more, so
 * a second reply (a double click told twice) would be seen too.
 */
async function toldBy(channel: string, ts: string, what: string, clicks: () => Promise<unknown>) {
  const before = replies(channel, ts).length;
  await clicks();
  await stack.slack.waitFor(() => replies(channel, ts).length > before || undefined, { what });
  await settle();
  return replies(channel, ts)
    .slice(before)
    .map((r) => r.text);
}

describe("an alert's message, acted on", () => {
  let id = "";
  let ts = "";
  let episode = "";
  const episodeId = () => episode;
  const ch = DEMO.security;

  it("fires one message with its state, controls and feedback buttons", async () => {
    const created = await command(stack, "alert UTC when violations unusual", DEMO.admin, ch);
    id = idIn(created.body);
    const fired = await checkNow(id, ch);
    expect(fired.runs?.alert?.state).toBe("firing");
    const m = episodeMessage(ch);
    ts = m.ts;
    episode = fired.runs?.alert?.episode?.id ?? "";
    expect(episode).toMatch(/^\d{8}T\d{6}Z$/);
    expect(checkMessage({ blocks: m.blocks, text: m.text })).toEqual([]);
    expect(textOf(m.blocks)).toMatch(/Firing\* since/);
    expect(textOf(m.blocks)).toContain("payments/*");
    // The trend behind the verdict, as a chart Slack draws (the workspace's default style).
    expect(chartBlocks(m.blocks)).toBe(1);
  });

  it("Acknowledge: refused to a member, nothing changes; the owner's double click is told once", async () => {
    const refused = await act(DEMO.member, ch, (b) => clickButton(b, ACTION.alertAcknowledge));
    expect(refused.ackMs).toBeLessThan(3_000);
    expect(await answer(refused)).toContain(
      `Only the owner of subscription ${id} or a workspace admin can change it.`,
    );
    expect(updates(ts)).toBe(0);
    expect((await stack.web.deps.subscriptions.get(REF, id))?.runs?.alert?.acknowledged).toBeUndefined();
    const [a, b] = await Promise.all([
      act(DEMO.admin, ch, (x) => clickButton(x, ACTION.alertAcknowledge)),
      act(DEMO.admin, ch, (x) => clickButton(x, ACTION.alertAcknowledge)),
    ]);
    await stack.slack.waitFor(() => replies(ch, ts).length === 1 || undefined, {
      what: "the acknowledgement",
    });
    // The other click is told it was done already.
    const either = await stack.slack.waitFor(
      () => stack.slack.responses(a.responseUrl ?? "")[0] ?? stack.slack.responses(b.responseUrl ?? "")[0],
      { what: "the answer to the second click" },
    );
    const told = textOf(either.body);
    expect(told).toContain("Already acknowledged by <@U0ADMIN01>");
    await settle();
    expect(replies(ch, ts).map((r) => r.text)).toEqual([
      expect.stringMatching(/^:eyes: Acknowledged by <@U0ADMIN01>/),
    ]);
    const after = episodeMessage(ch);
    expect(textOf(after.blocks)).toMatch(/Acknowledged\* by <@U0ADMIN01>/);
    expect(textOf(after.blocks)).not.toContain(ACTION.alertAcknowledge);
    expect(chartBlocks(after.blocks)).toBe(1);
    expect((await stack.web.deps.subscriptions.get(REF, id))?.runs?.alert?.acknowledged?.by).toBe(DEMO.admin);
  });

  it("Snooze: refused to a member; the owner's snooze is shown and told once, a repeat is one snooze", async () => {
    const day = (blocks: unknown) => chooseOption(blocks, ACTION.alertSnooze, `${id}|${episodeId()}|d`);
    const refused = await act(DEMO.member, ch, day);
    expect(await answer(refused)).toContain("Only the owner");
    const told = await toldBy(ch, ts, "the snooze", () => act(DEMO.admin, ch, day));
    expect(told).toEqual([
      expect.stringMatching(/^:zzz: Snoozed until .* by <@U0ADMIN01>: nothing is posted until then\.$/),
    ]);
    // The same snooze again at once is the same snooze: said privately, nothing told again.
    const count = replies(ch, ts).length;
    expect(await answer(await act(DEMO.admin, ch, day))).toContain("Snoozed that way a moment ago already");
    expect(replies(ch, ts)).toHaveLength(count);
    const s = await stack.web.deps.subscriptions.get(REF, id);
    expect(s?.runs?.alert?.snoozed).toMatchObject({ kind: "day", by: DEMO.admin });
    expect(textOf(episodeMessage(ch).blocks)).toMatch(/Snoozed\* until/);
  });

  it("Why? answers a member privately with what moved it, computed off the acking loop", async () => {
    const sent = await act(DEMO.member, ch, (b) => clickButton(b, ACTION.alertWhy));
    expect(sent.ackMs).toBeLessThan(3_000);
    const text = await answer(sent);
    expect(text).toContain("What moved it");
    expect(text).toMatch(/\*Violations\* \+[\d,]+/);
    expect(text).toMatch(/by asset group: payments\/\* \+[\d,]+/);
  });

  it("was it useful?: one vote per person, changeable; the counts show in status, the list and App Home", async () => {
    const up = (b: unknown) => pressFeedback(b, ACTION.alertFeedback, "positive");
    const down = (b: unknown) => pressFeedback(b, ACTION.alertFeedback, "negative");
    expect(await answer(await act(DEMO.member, ch, up))).toContain("This alert so far: 1 👍 · 0 👎");
    expect(await answer(await act(DEMO.member, ch, up))).toContain("This alert so far: 1 👍 · 0 👎");
    expect(await answer(await act(DEMO.admin, ch, down))).toContain("This alert so far: 1 👍 · 1 👎");
    expect(await answer(await act(DEMO.member, ch, down))).toContain("This alert so far: 0 👍 · 2 👎");
    expect((await stack.web.deps.subscriptions.get(REF, id))?.runs?.feedback).toEqual({
      useful: 0,
      notUseful: 2,
    });
    const status = textOf((await command(stack, "status", DEMO.admin, ch)).body);
    expect(status).toContain("was it useful? 👍 0 · 👎 2");
    const list = textOf((await command(stack, "subscriptions", DEMO.admin, ch)).body);
    expect(list).toContain("was it useful? 👍 0 · 👎 2");
    expect(list).toContain("acknowledged by <@U0ADMIN01>");
    await stack.slack.sendEvent({
      teamId: DEMO.teamId,
      event: { type: "app_home_opened", user: DEMO.admin, channel: "D0ADMIN01", tab: "home" },
    });
    const home = await stack.slack.waitFor(() => {
      const v = stack.slack.homeView(DEMO.admin);
      return v && textOf(v.view.blocks).includes("was it useful?") ? v : undefined;
    });
    expect(textOf(home.view.blocks)).toContain("was it useful? 👍 0 · 👎 2");
  });

  it("Pause this alert: refused to a member; the owner's double click pauses once and says so", async () => {
    const pause = (b: unknown) => clickButton(b, ACTION.alertPause);
    expect(await answer(await act(DEMO.member, ch, pause))).toContain("Only the owner");
    expect((await stack.web.deps.subscriptions.get(REF, id))?.status).toBe("active");
    const told = await toldBy(ch, ts, "the pause", () =>
      Promise.all([act(DEMO.admin, ch, pause), act(DEMO.admin, ch, pause)]),
    );
    expect(told).toEqual([
      expect.stringMatching(
        /^:double_vertical_bar: Alert paused by <@U0ADMIN01> .*`\/insights resume \w+` starts it again\.$/,
      ),
    ]);
    expect((await stack.web.deps.subscriptions.get(REF, id))?.status).toBe("paused");
    const after = textOf(episodeMessage(ch).blocks);
    expect(after).toMatch(/Alert paused\*/);
    expect(after).not.toContain(ACTION.alertPause);
  });
});

describe("a personal alert", () => {
  it("its owner, a member, may acknowledge it from the DM", async () => {
    const dm = `D${DEMO.member.slice(1)}`;
    const created = await command(stack, "alert me UTC when violations unusual", DEMO.member);
    const id = idIn(created.body);
    expect((await checkNow(id, dm)).runs?.alert?.state).toBe("firing");
    const ts = episodeMessage(dm).ts;
    await act(DEMO.member, dm, (b) => clickButton(b, ACTION.alertAcknowledge));
    await stack.slack.waitFor(() => replies(dm, ts).length === 1 || undefined, {
      what: "the acknowledgement",
    });
    expect((await stack.web.deps.subscriptions.get(REF, id))?.runs?.alert?.acknowledged?.by).toBe(
      DEMO.member,
    );
  });
});
