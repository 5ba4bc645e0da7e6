import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { slackEvents } from "../../sandbox/slack/index.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { checkView } from "../../src/blockkit/limits.ts";
import { ACTION, SUBSCRIBE_FIELD as F } from "../../src/ids.ts";
import { command } from "./helpers.ts";
import {
  clickHome,
  homeText,
  idIn,
  openHome,
  REF,
  schedulerOf,
  sub,
  subscriptionStack,
} from "./subscriptions-helpers.ts";

const PROJECT = "C0PROJECT1";
const ADMIN_DM = `D${DEMO.admin.slice(1)}`;
let stack: Stack;

beforeAll(async () => {
  stack = await subscriptionStack(inject("redisUrl"), `e2e-home-${process.pid}`);
  stack.slack.addChannel(DEMO.teamId, { id: PROJECT, name: "project" });
});
afterAll(async () => stack?.close());

const event = (e: Record<string, unknown>) => stack.slack.sendEvent({ teamId: DEMO.teamId, event: e });
// A delivery queries and posts (an image chart would also upload and wait for Slack's processing):
// on a loaded machine the post comes well after the `send` reply.
const DELIVERY_MS = 20_000;
const waitSub = (id: string, ok: (s: NonNullable<Awaited<ReturnType<typeof sub>>>) => boolean) =>
  stack.slack.waitFor(
    async () => {
      const s = await sub(stack, id);
      return s && ok(s) ? s : undefined;
    },
    { timeoutMs: DELIVERY_MS },
  );

describe("App Home", () => {
  let id = "";

  it("shows the key status and, for admins, Connect and New subscription; members get neither", async () => {
    const admin = await openHome(stack, DEMO.admin);
    expect(homeText(admin)).toContain(`connected by <@${DEMO.admin}>`);
    expect(homeText(admin)).toContain(ACTION.connect);
    expect(homeText(admin)).toContain(ACTION.subscriptionNew);
    expect(homeText(admin)).toContain("No subscriptions yet");
    const member = await openHome(stack, DEMO.member);
    expect(homeText(member)).not.toContain(ACTION.connect);
    expect(homeText(member)).not.toContain(ACTION.subscriptionNew);
  });

  it("a subscription shows owner, schedule, zone, filters and next run; after `send`, its last delivery", async () => {
    const { body } = await command(
      stack,
      "subscribe weekly fri 16:00 Asia/Kolkata scanner:sast",
      DEMO.admin,
      PROJECT,
    );
    id = idIn(body);
    const before = await openHome(stack, DEMO.admin);
    const text = homeText(before);
    for (const part of [
      "Weekly on Fri at 16:00",
      "Asia/Kolkata",
      `<#${PROJECT}>`,
      `Set up by <@${DEMO.admin}>`,
      "Next run",
      "No delivery yet",
      id,
    ])
      expect(text).toContain(part);
    expect(text).toMatch(/filters: [^"]*sast/i);
    await command(stack, `send ${id}`, DEMO.admin);
    await stack.slack.waitFor(() => stack.slack.messages(PROJECT)[0], { timeoutMs: DELIVERY_MS });
    await waitSub(id, (s) => s.lastDelivery?.outcome === "delivered");
    const after = await openHome(stack, DEMO.admin);
    expect(homeText(after)).toContain("Last delivered");
    expect(homeText(after)).not.toContain("No delivery yet");
    const member = await openHome(stack, DEMO.member);
    expect(homeText(member)).toContain("Weekly on Fri at 16:00");
    expect(homeText(member)).not.toContain(ACTION.subscriptionPause);
  });

  it("Pause and Resume on the Home tab act and re-publish it; a member's forged click changes nothing", async () => {
    const paused = await clickHome(stack, DEMO.admin, ACTION.subscriptionPause, id);
    expect(homeText(paused)).toContain("Paused");
    expect(homeText(paused)).toContain(ACTION.subscriptionResume);
    expect((await sub(stack, id))?.status).toBe("paused");
    expect(await schedulerOf(stack, id)).toBeUndefined();
    await openHome(stack, DEMO.member);
    const refused = await clickHome(stack, DEMO.member, ACTION.subscriptionResume, id);
    expect(homeText(refused)).toContain("Only the owner");
    expect((await sub(stack, id))?.status).toBe("paused");
    const resumed = await clickHome(stack, DEMO.admin, ACTION.subscriptionResume, id);
    expect(homeText(resumed)).toContain("Resumed");
    expect((await sub(stack, id))?.status).toBe("active");
    expect(await schedulerOf(stack, id)).toMatchObject({ pattern: "0 16 * * 5", tz: "Asia/Kolkata" });
  });

  it("archived channel: paused, owner told once, Home shows why and how to fix; unarchived: resumed, and `send` delivers again", async () => {
    stack.slack.setChannel(PROJECT, { archived: true });
    const archive = slackEvents.channelArchive(PROJECT, DEMO.owner);
    await event(archive);
    await event(archive); // a redelivery changes nothing
    const paused = await waitSub(id, (s) => s.status === "paused");
    expect(paused.pausedReason).toBe("channel_archived");
    expect(await schedulerOf(stack, id)).toBeUndefined();
    const told = () =>
      stack.slack
        .messages(ADMIN_DM)
        .filter((m) => (m.text ?? "").includes("paused because the channel was archived"));
    await stack.slack.waitFor(() => told().length > 0);
    const home = await openHome(stack, DEMO.admin);
    expect(homeText(home)).toContain("Paused* because the channel was archived");
    expect(homeText(home)).toContain("Unarchive the channel");
    expect(told()).toHaveLength(1);

    stack.slack.setChannel(PROJECT, { archived: false });
    await event(slackEvents.channelUnarchive(PROJECT, DEMO.owner));
    await waitSub(id, (s) => s.status === "active");
    await stack.slack.waitFor(() =>
      stack.slack.messages(ADMIN_DM).find((m) => (m.text ?? "").includes("can get digests again")),
    );
    const before = stack.slack.messages(PROJECT).length;
    await command(stack, `send ${id}`, DEMO.admin);
    const posted = await stack.slack.waitFor(() => stack.slack.messages(PROJECT)[before], {
      timeoutMs: DELIVERY_MS,
    });
    expect(posted.text).toMatch(/findings/);
    expect(told()).toHaveLength(1);
  });

  it("the app removed from a channel pauses its subscriptions; someone else leaving does not", async () => {
    await event(slackEvents.memberLeftChannel(DEMO.member, PROJECT));
    await new Promise((r) => setTimeout(r, 200));
    expect((await sub(stack, id))?.status).toBe("active");
    stack.slack.setChannel(PROJECT, { botMember: false });
    await event(slackEvents.memberLeftChannel(DEMO.botUserId, PROJECT));
    const paused = await waitSub(id, (s) => s.status === "paused");
    expect(paused.pausedReason).toBe("bot_removed");
    const home = await openHome(stack, DEMO.admin);
    expect(homeText(home)).toContain("the app was removed from the channel");
    stack.slack.setChannel(PROJECT, { botMember: true });
    await event({ type: "member_joined_channel", user: DEMO.botUserId, channel: PROJECT, channel_type: "C" });
    await waitSub(id, (s) => s.status === "active");
  });

  it("New subscription on the Home tab opens the modal; saving re-publishes the Home with it", async () => {
    const home = stack.slack.homeView(DEMO.admin);
    const before = stack.slack.views().length;
    await stack.slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { id: home?.id ?? "" },
      actions: [{ type: "button", action_id: ACTION.subscriptionNew, block_id: "home_new", value: "home" }],
    });
    const modal = await stack.slack.waitFor(() =>
      stack.slack
        .views()
        .slice(before)
        .find((v) => v.type === "modal"),
    );
    expect(checkView(modal.view)).toEqual([]);
    const hash = stack.slack.homeView(DEMO.admin)?.hash;
    const res = await stack.slack.sendViewSubmission({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { id: modal.id },
      values: {
        [F.channel]: { [F.channel]: { type: "conversations_select", selected_conversation: DEMO.general } },
        [F.frequency]: { [F.frequency]: { type: "radio_buttons", selected_option: { value: "weekly" } } },
        [F.weekday]: { [F.weekday]: { type: "checkboxes", selected_options: [{ value: "mon" }] } },
        [F.time]: { [F.time]: { type: "timepicker", selected_time: "09:00" } },
        [F.timezone]: { [F.timezone]: { type: "plain_text_input", value: "Europe/Berlin" } },
        [F.range]: { [F.range]: { type: "static_select", selected_option: { value: "last30d" } } },
      },
    });
    expect(res.status).toBe(200);
    const republished = await stack.slack.waitFor(() => {
      const v = stack.slack.homeView(DEMO.admin);
      return v && v.hash !== hash ? v : undefined;
    });
    expect(homeText(republished)).toContain("Subscribed");
    expect(homeText(republished)).toContain("range `last30d`");
  });

  it("with more subscriptions than fit, the Home tab stays within 100 blocks and says how many more", async () => {
    for (let i = 0; i < 36; i++)
      await stack.web.deps.subscriptions.create(
        REF,
        { channelId: DEMO.general, schedule: { kind: "daily" }, time: `0${i % 10}:1${i % 6}`, tz: "UTC" },
        DEMO.admin,
      );
    const home = await openHome(stack, DEMO.admin);
    expect((home.view.blocks as unknown[]).length).toBeLessThanOrEqual(100);
    expect(homeText(home)).toMatch(/and \d+ more/);
  });

  it("uninstall removes every subscription and its scheduler", async () => {
    const subs = await stack.web.deps.subscriptions.list(REF);
    expect(subs.length).toBeGreaterThan(30);
    await event(slackEvents.appUninstalled());
    await stack.slack.waitFor(async () => (await stack.web.deps.subscriptions.list(REF)).length === 0);
    // Each removal drops its emptied slot's scheduler right after the record, so the last scheduler
    // can still be there for a moment when the list is already empty.
    const schedulers = await stack.slack
      .waitFor(async () => ((await stack.worker?.queue.getJobSchedulers(0, -1)) ?? []).length === 0, {
        what: "every slot scheduler removed",
      })
      .then(() => stack.worker?.queue.getJobSchedulers(0, -1));
    expect(schedulers ?? []).toEqual([]);
    expect(await schedulerOf(stack, id)).toBeUndefined();
  });
});
