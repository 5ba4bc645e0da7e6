import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accountFor, DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { clickButton, findElement, type StoredView } from "../../sandbox/slack/index.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { checkView } from "../../src/blockkit/limits.ts";
import { SUBSCRIBE_FIELD as F } from "../../src/ids.ts";
import { nextRuns } from "../../src/subscriptions/schedule.ts";
import { runTime } from "../../templates/subscribe-times.ts";
import { command, connect, startTestStack } from "./helpers.ts";
import { REF, schedulerOf, textOf } from "./subscriptions-helpers.ts";

const BIG_KEY = "subs-modal-big-key";
let stack: Stack;

beforeAll(async () => {
  stack = await startTestStack({
    redisUrl: inject("redisUrl"),
    prefix: `e2e-subs-modal-${process.pid}`,
    transport: inject("transport"),
    emulator: { accounts: [{ apiKey: BIG_KEY, assetCount: 300 }] },
    worker: { policy: { attempts: 1, backoffMs: 100 } },
  });
  stack.slack.setRateLimit({ enabled: false });
  await connect(stack);
});
afterAll(async () => stack?.close());

interface Fill {
  channel?: string;
  frequency: "daily" | "weekly" | "cron";
  days?: string[];
  cron?: string;
  time?: string;
  tz: string;
  range?: string;
  assets?: { value: string; text: string }[];
  condition?: string;
  mode?: "digest" | "alert";
}

/** `view.state.values` as Slack sends them for the modal's inputs. */
function values(f: Fill): Record<string, unknown> {
  const v: Record<string, unknown> = {
    [F.channel]: { [F.channel]: { type: "conversations_select", selected_conversation: f.channel ?? null } },
    [F.frequency]: { [F.frequency]: { type: "radio_buttons", selected_option: { value: f.frequency } } },
    [F.timezone]: { [F.timezone]: { type: "plain_text_input", value: f.tz } },
    [F.range]: { [F.range]: { type: "static_select", selected_option: { value: f.range ?? "last7d" } } },
    [F.assets]: {
      [F.assets]: {
        type: "multi_static_select",
        selected_options: (f.assets ?? []).map((a) => ({
          value: a.value,
          text: { type: "plain_text", text: a.text },
        })),
      },
    },
  };
  if (f.days)
    v[F.weekday] = {
      [F.weekday]: { type: "checkboxes", selected_options: f.days.map((d) => ({ value: d })) },
    };
  if (f.cron !== undefined) v[F.cron] = { [F.cron]: { type: "plain_text_input", value: f.cron } };
  if (f.time) v[F.time] = { [F.time]: { type: "timepicker", selected_time: f.time } };
  if (f.condition !== undefined)
    v[F.condition] = { [F.condition]: { type: "plain_text_input", value: f.condition } };
  if (f.mode) v[F.mode] = { [F.mode]: { type: "radio_buttons", selected_option: { value: f.mode } } };
  return v;
}

const blocksOf = (v: StoredView) => v.view.blocks as { block_id?: string; text?: { text: string } }[];
const previewOf = (v: StoredView) => blocksOf(v).find((b) => b.block_id === "sub_preview")?.text?.text ?? "";
const runsOf = (v: StoredView) =>
  previewOf(v)
    .split("\n")
    .filter((l) => l.startsWith("• "))
    .map((l) => l.slice(2));

/** Runs `/insights subscribe` and returns the modal it opened. */
async function openModal(userId: string = DEMO.admin, channelId: string = DEMO.general): Promise<StoredView> {
  const before = stack.slack.views().length;
  await stack.slack.sendCommand({ teamId: DEMO.teamId, userId, channelId, text: "subscribe" });
  return stack.slack.waitFor(() =>
    stack.slack
      .views()
      .slice(before)
      .find((v) => v.type === "modal" && v.view.callback_id === "subscribe_modal"),
  );
}

/** Changes one schedule input (a dispatch action) and waits for the redraw. */
async function change(view: StoredView, fill: Fill, action: Record<string, unknown>): Promise<StoredView> {
  const before = stack.slack.views().find((v) => v.id === view.id)?.hash;
  await stack.slack.sendBlockAction({
    teamId: DEMO.teamId,
    userId: DEMO.admin,
    view: { id: view.id },
    values: values(fill),
    actions: [{ block_id: action.action_id, action_ts: `${Date.now() / 1000}`, ...action }],
  });
  return stack.slack.waitFor(() => {
    const v = stack.slack.views().find((x) => x.id === view.id);
    return v && v.hash !== before ? v : undefined;
  });
}

/** The block actions of the modal's inputs, as Slack sends them when one is changed. */
const picked = {
  frequency: (value: string) => ({
    type: "radio_buttons",
    action_id: F.frequency,
    selected_option: { value },
  }),
  zone: (value: string) => ({ type: "plain_text_input", action_id: F.timezone, value }),
  time: (value: string) => ({ type: "timepicker", action_id: F.time, selected_time: value }),
  channel: (value: string) => ({
    type: "conversations_select",
    action_id: F.channel,
    selected_conversation: value,
  }),
};

/** Slack calls about a person or a channel made while `send` waited for its answer. */
async function slackCallsDuring(send: () => Promise<unknown>, about: { user: string; channel: string }) {
  const from = Date.now();
  await send();
  const to = Date.now();
  return stack.slack
    .calls()
    .filter((c) => c.at >= from && c.at <= to)
    .filter(
      (c) => c.args.user === about.user || c.args.channel === about.channel || c.args.users === about.user,
    )
    .map((c) => c.method);
}

const submit = (view: StoredView, fill: Fill, userId: string = DEMO.admin) =>
  stack.slack.sendViewSubmission({
    teamId: DEMO.teamId,
    userId,
    view: { id: view.id },
    values: values(fill),
  });

describe("the subscribe modal", () => {
  it("opens from `subscribe` with the defaults: this channel, weekly Monday 09:00, the creator's zone, and the next five runs", async () => {
    const view = await openModal();
    expect(checkView(view.view)).toEqual([]);
    expect(findElement(view.view.blocks, F.channel)?.element.initial_conversation).toBe(DEMO.general);
    expect(findElement(view.view.blocks, F.timezone)?.element.initial_value).toBe("Europe/Berlin");
    expect(findElement(view.view.blocks, F.assets)?.element.type).toBe("multi_static_select");
    expect(previewOf(view)).toContain("Next 5 runs* (Europe/Berlin)");
    const runs = runsOf(view);
    expect(runs).toHaveLength(5);
    for (const r of runs) expect(r).toMatch(/^Mon .* 09:00 CES?T$/);
  });

  it("the next runs follow the inputs: daily drops the weekdays, a zone change moves them, a bad cron says why", async () => {
    const view = await openModal();
    const since = new Date();
    const daily = await change(
      view,
      { frequency: "daily", time: "07:45", tz: "Europe/Berlin" },
      picked.frequency("daily"),
    );
    expect(findElement(daily.view.blocks, F.weekday)).toBeUndefined();
    // The runs as of when the app drew the preview: at the test's start, or now if a 07:45 passed between.
    const expectedAt = (now: Date) =>
      nextRuns({ kind: "daily" }, "07:45", "Europe/Berlin", now, 5).map((d) => runTime(d, "Europe/Berlin"));
    expect([expectedAt(since), expectedAt(new Date())]).toContainEqual(runsOf(daily));
    const tokyo = await change(
      daily,
      { frequency: "daily", time: "07:45", tz: "Asia/Tokyo" },
      picked.zone("Asia/Tokyo"),
    );
    expect(previewOf(tokyo)).toContain("(Asia/Tokyo)");
    for (const r of runsOf(tokyo)) expect(r).toMatch(/07:45 (JST|GMT\+9)$/);
    const cron = await change(
      tokyo,
      { frequency: "cron", cron: "61 * * * *", tz: "Asia/Tokyo" },
      picked.frequency("cron"),
    );
    expect(findElement(cron.view.blocks, F.cron)).toBeDefined();
    expect(findElement(cron.view.blocks, F.time)).toBeUndefined();
    expect(previewOf(cron)).toContain(":warning:");
    expect(checkView(cron.view)).toEqual([]);
  });

  it("a bad condition is refused on its input with the grammar; nothing saved", async () => {
    const view = await openModal();
    const before = (await stack.web.deps.subscriptions.list(REF)).length;
    const fill: Fill = {
      channel: DEMO.general,
      frequency: "weekly",
      days: ["mon"],
      time: "09:00",
      tz: "Europe/Berlin",
      condition: "when vulns up 10%",
    };
    const answer = await submit(view, fill);
    expect(answer.body).toMatchObject({
      response_action: "errors",
      errors: { [F.condition]: expect.stringContaining('"vulns" is not a number I track') },
    });
    const said = (answer.body as { errors: Record<string, string> }).errors[F.condition];
    expect(said).toContain("when violations > 500");
    expect((await stack.web.deps.subscriptions.list(REF)).length).toBe(before);
  });

  it("an unusual alert from the modal: stored in canonical form; `unusually` without a direction is refused inline", async () => {
    const view = await openModal();
    const base: Fill = {
      channel: DEMO.general,
      frequency: "weekly",
      days: ["mon"],
      time: "09:00",
      tz: "Europe/Berlin",
      mode: "alert",
    };
    const bad = await submit(view, { ...base, condition: "when violations unusually" });
    expect(bad.body).toMatchObject({
      response_action: "errors",
      errors: { [F.condition]: expect.stringContaining("needs a direction") },
    });
    const ok = await submit(view, { ...base, condition: "When Violations Unusually High Sensitivity High" });
    expect(ok.status).toBe(200);
    const saved = await stack.slack.waitFor(async () =>
      (await stack.web.deps.subscriptions.listByChannel(REF, DEMO.general)).find((s) =>
        s.condition?.includes("unusually"),
      ),
    );
    expect(saved).toMatchObject({
      mode: "alert",
      condition: "when violations unusually high sensitivity high",
    });
  });

  it("a fix-rate alert from the modal: stored in canonical form; a rate over 100% is refused inline", async () => {
    const view = await openModal();
    const base: Fill = {
      channel: DEMO.general,
      frequency: "weekly",
      days: ["mon"],
      time: "09:00",
      tz: "Europe/Berlin",
      mode: "alert",
    };
    const bad = await submit(view, { ...base, condition: "when fix rate below 140%" });
    expect(bad.body).toMatchObject({
      response_action: "errors",
      errors: { [F.condition]: expect.stringContaining('"140%" is not a fix rate') },
    });
    const ok = await submit(view, { ...base, condition: "when Fix Rate below 62.5%" });
    expect(ok.status).toBe(200);
    const saved = await stack.slack.waitFor(async () =>
      (await stack.web.deps.subscriptions.listByChannel(REF, DEMO.general)).find((s) =>
        s.condition?.includes("fixrate"),
      ),
    );
    expect(saved).toMatchObject({ mode: "alert", condition: "when fixrate < 62.5%" });
  });

  it("bad cron, unknown zone, no weekday, a picked channel without the app: inline errors, nothing saved, no Slack call before the answer", async () => {
    const view = await openModal();
    const count = async () => (await stack.web.deps.subscriptions.list(REF)).length;
    const before = await count();
    const cron: Fill = { channel: DEMO.general, frequency: "cron", cron: "0 9 * *", tz: "Europe/Berlin" };
    // The cron input is in the view once "cron" is chosen (an error may only name an input the view has).
    const cronView = await change(view, cron, picked.frequency("cron"));
    const cronReply = await submit(cronView, cron);
    expect(cronReply.body).toMatchObject({
      response_action: "errors",
      errors: { [F.cron]: expect.stringContaining("5 fields") },
    });
    const refused: [Fill, string, unknown, string?][] = [
      [
        { channel: DEMO.general, frequency: "daily", time: "09:00", tz: "Mars/Phobos" },
        F.timezone,
        expect.stringContaining("Mars/Phobos"),
      ],
      [
        { channel: DEMO.general, frequency: "weekly", days: [], time: "09:00", tz: "Europe/Berlin" },
        F.weekday,
        expect.any(String),
      ],
      [
        { channel: DEMO.noBot, frequency: "weekly", days: ["mon"], time: "09:00", tz: "Europe/Berlin" },
        F.channel,
        expect.stringContaining("/invite @Insights"),
      ],
    ];
    // Picking the channel has it checked (and the modal says so at once), as a person picking it would.
    const warned = await change(
      view,
      { channel: DEMO.noBot, frequency: "weekly", days: ["mon"], time: "09:00", tz: "Europe/Berlin" },
      picked.channel(DEMO.noBot),
    );
    expect(previewOf(warned)).toContain("/invite @Insights");
    for (const [fill, field, error, userId] of refused) {
      let reply: Awaited<ReturnType<typeof submit>> | undefined;
      const calls = await slackCallsDuring(
        async () => {
          reply = await submit(view, fill, userId);
        },
        { user: userId ?? DEMO.admin, channel: fill.channel ?? "" },
      );
      expect(reply?.body).toMatchObject({ response_action: "errors", errors: { [field]: error } });
      // The one who opened the modal was looked up then; a forged submission by someone else may be looked up now.
      if (!userId) expect(calls, JSON.stringify(fill)).toEqual([]);
    }
    expect(await count()).toBe(before);
  });

  it("a channel nobody checked lately: the answer waits on no Slack call; saved paused, told how to fix; it starts when the app is invited", async () => {
    const view = await openModal();
    const fill: Fill = { channel: DEMO.noBot, frequency: "weekly", days: ["tue"], time: "07:00", tz: "UTC" };
    // A schedule other than the preview's is shown first; the second submission is the one that saves.
    expect((await submit(view, fill)).body).toMatchObject({ response_action: "update" });
    const shown = stack.slack.views().find((v) => v.id === view.id) as StoredView;
    // Forget what opening and picking learned: the submission meets a channel it knows nothing of.
    await stack.redis.del(stack.web.deps.keys.channelState(REF, DEMO.noBot));
    const before = (await stack.web.deps.subscriptions.list(REF)).length;
    let reply: Awaited<ReturnType<typeof submit>> | undefined;
    const calls = await slackCallsDuring(
      async () => {
        reply = await submit(shown, fill);
      },
      { user: DEMO.admin, channel: DEMO.noBot },
    );
    expect(reply?.status).toBe(200);
    expect(reply?.body ?? "").toBe("");
    expect(calls).toEqual([]);
    const told = await stack.slack.waitFor(() =>
      stack.slack.ephemerals(DEMO.admin).find((m) => String(m.text).includes("paused for now")),
    );
    expect(String(told.text)).toContain("/invite @Insights");
    const subs = await stack.web.deps.subscriptions.list(REF);
    expect(subs.length).toBe(before + 1);
    const saved = subs.find(
      (s) => s.channelId === DEMO.noBot && s.schedule.kind === "weekly" && s.time === "07:00",
    );
    expect(saved).toMatchObject({ status: "paused", pausedReason: "not_in_channel" });
    // The app is invited: the subscription resumes by itself.
    stack.slack.setChannel(DEMO.noBot, { botMember: true });
    await stack.slack.sendEvent({
      teamId: DEMO.teamId,
      event: { type: "member_joined_channel", user: DEMO.botUserId, channel: DEMO.noBot, channel_type: "C" },
    });
    await stack.slack.waitFor(
      async () => (await stack.web.deps.subscriptions.get(REF, saved?.id ?? ""))?.status === "active",
    );
  });

  it("a submission from someone the app does not know yet: no users.info before the ack; asked after it, so the next submission is judged", async () => {
    const view = await openModal();
    const count = async () => (await stack.web.deps.subscriptions.list(REF)).length;
    const before = await count();
    const fill: Fill = {
      channel: DEMO.general,
      frequency: "weekly",
      days: ["mon"],
      time: "09:00",
      tz: "Europe/Berlin",
    };
    const lookups = () => stack.slack.calls((c) => c.method === "users.info" && c.args.user === DEMO.member);
    expect(lookups()).toEqual([]);
    const sentAt = Date.now();
    const first = await submit(view, fill, DEMO.member);
    expect(first.body).toMatchObject({
      response_action: "errors",
      errors: { [F.channel]: expect.stringContaining("I could not check who you are in time") },
    });
    // Asked once the ack was on its way, never before.
    const looked = await stack.slack.waitFor(() => lookups()[0]);
    expect(looked.at).toBeGreaterThanOrEqual(sentAt + first.ackMs - 5);
    const second = await submit(view, fill, DEMO.member);
    expect(second.body).toMatchObject({
      response_action: "errors",
      errors: { [F.channel]: expect.stringContaining("Only workspace admins") },
    });
    expect(lookups()).toHaveLength(1);
    expect(await count()).toBe(before);
  });

  it("a schedule changed since its preview is shown again with its runs; the second submit saves it with a scheduler", async () => {
    const view = await openModal();
    const asset = accountFor(DEMO_API_KEY)?.assets[0];
    if (!asset) throw new Error("the demo account has no assets");
    const fill: Fill = {
      channel: DEMO.security,
      frequency: "weekly",
      days: ["tue", "fri"],
      time: "18:15",
      tz: "America/New_York",
      range: "lastweek",
      assets: [{ value: asset.value, text: asset.displayValue }],
    };
    const first = await submit(view, fill);
    expect(first.body).toMatchObject({ response_action: "update" });
    const shown = stack.slack.views().find((v) => v.id === view.id) as StoredView;
    expect(previewOf(shown)).toContain("changed since the preview");
    expect(runsOf(shown).every((r) => /^(Tue|Fri) .* 18:15 E[SD]T$/.test(r))).toBe(true);
    expect(checkView(shown.view)).toEqual([]);
    const before = stack.slack.ephemerals(DEMO.admin).length;
    const second = await submit(shown, fill);
    expect(second.status).toBe(200);
    expect(
      second.body === undefined || second.body === "" || Object.keys(second.body as object).length === 0,
    ).toBe(true);
    const saved = (await stack.web.deps.subscriptions.listByChannel(REF, DEMO.security)).find(
      (s) => s.time === "18:15",
    );
    expect(saved).toMatchObject({
      ownerId: DEMO.admin,
      schedule: { kind: "weekly", days: ["tue", "fri"] },
      tz: "America/New_York",
      range: "lastweek",
      assetIds: [asset.value],
      filterLabels: [asset.displayValue],
    });
    expect(await schedulerOf(stack, saved?.id ?? "")).toMatchObject({
      pattern: "15 18 * * 2,5",
      tz: "America/New_York",
    });
    const confirmation = await stack.slack.waitFor(() => stack.slack.ephemerals(DEMO.admin)[before]);
    expect(confirmation.text).toContain("Subscribed");
    expect(textOf(confirmation.blocks)).toContain("Next 5 runs");
  });

  it("Edit from the list opens the modal filled in, and saving updates the subscription and its scheduler", async () => {
    const created = await command(stack, "subscribe daily 06:00 UTC", DEMO.admin, DEMO.general);
    const id = /Id `([a-z0-9]+)`/.exec(textOf(created.body))?.[1] ?? "";
    const list = await command(stack, "subscriptions", DEMO.admin, DEMO.general);
    const edit = clickButton(list.body.blocks, "sub_edit");
    const before = stack.slack.views().length;
    await stack.slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      channelId: DEMO.general,
      responseUrl: list.sent.responseUrl,
      container: { is_ephemeral: true },
      actions: [{ ...edit, value: id }],
    });
    const view = await stack.slack.waitFor(() =>
      stack.slack
        .views()
        .slice(before)
        .find((v) => v.type === "modal"),
    );
    expect((view.view.title as { text: string }).text).toBe("Edit subscription");
    expect(findElement(view.view.blocks, F.time)?.element.initial_time).toBe("06:00");
    expect(findElement(view.view.blocks, F.timezone)?.element.initial_value).toBe("UTC");
    const fill: Fill = { channel: DEMO.general, frequency: "daily", time: "06:30", tz: "UTC" };
    const redrawn = await change(view, fill, picked.time("06:30"));
    await submit(redrawn, fill);
    const updated = await stack.slack.waitFor(async () => {
      const s = await stack.web.deps.subscriptions.get(REF, id);
      return s?.time === "06:30" ? s : undefined;
    });
    expect(updated.ownerId).toBe(DEMO.admin);
    expect(await schedulerOf(stack, id)).toMatchObject({ pattern: "30 6 * * *", tz: "UTC" });
  });

  it("over 100 assets the filter is type-ahead, served by the options endpoint", async () => {
    await connect(stack, BIG_KEY);
    try {
      const view = await openModal();
      const menu = findElement(view.view.blocks, F.assets);
      expect(menu?.element.type).toBe("multi_external_select");
      const target = accountFor(BIG_KEY)?.assets[42];
      const query = (target?.displayValue.split(" / ")[1] ?? "").slice(0, 6);
      const res = await stack.slack.sendOptions({
        teamId: DEMO.teamId,
        userId: DEMO.admin,
        actionId: F.assets,
        viewId: view.id,
        value: query,
      });
      const options = (res.body as { options: { value: string }[] }).options;
      expect(res.ackMs).toBeLessThan(3000);
      expect(options.map((o) => o.value)).toContain(target?.value);
      expect(options.map((o) => o.value)).not.toContain("*");
    } finally {
      await connect(stack);
    }
  });
});
