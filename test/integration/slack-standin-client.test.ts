import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, webApi } from "@slack/bolt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../sandbox/redis.ts";
import {
  chooseOption,
  clickButton,
  DEMO,
  type SlackStandIn,
  slackEvents,
  startSlackStandIn,
} from "../../sandbox/slack/index.ts";
import { connectModal, inGeneral, quiet } from "./standin-fixtures.ts";

const SECRET = "client-side-signing-secret";

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

let seen: Seen[] = [];
let reply: (s: Seen) => { status: number; body?: unknown } = () => ({ status: 200 });
let receiver: Server;
let slack: SlackStandIn;

/** Written independently of the stand-in: Slack's documented v0 scheme. */
function verifies(s: Seen, secret = SECRET): boolean {
  const ts = s.headers["x-slack-request-timestamp"];
  const sig = s.headers["x-slack-signature"];
  if (typeof ts !== "string" || typeof sig !== "string") return false;
  const mine = `v0=${createHmac("sha256", secret).update(`v0:${ts}:${s.raw}`).digest("hex")}`;
  return mine.length === sig.length && timingSafeEqual(Buffer.from(mine), Buffer.from(sig));
}

const lastForm = () => Object.fromEntries(new URLSearchParams(seen.at(-1)?.raw ?? ""));
const lastPayload = () => JSON.parse(lastForm().payload ?? "null");
const web = () =>
  new webApi.WebClient(DEMO.botToken, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: quiet,
  });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const s = { path: req.url ?? "", headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") };
      seen.push(s);
      const out = reply(s);
      if (out.body === undefined) return void res.writeHead(out.status).end();
      res.writeHead(out.status, { "Content-Type": "application/json" }).end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const appUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/slack/events`;
  slack = await startSlackStandIn({ signingSecret: SECRET, appUrl, rateLimit: { enabled: false } });
});

afterAll(async () => {
  await slack.close();
  await new Promise((r) => receiver.close(r));
});

beforeEach(() => {
  seen = [];
  reply = () => ({ status: 200 });
  slack.reset();
});

describe("slash commands", () => {
  it("are signed with Slack's v0 scheme and carry every form field", async () => {
    reply = () => ({ status: 200, body: { text: "working on it" } });
    const r = await slack.sendCommand({
      ...inGeneral(),
      text: "last7d",
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ text: "working on it" });
    expect(r.ackMs).toBeGreaterThan(0);
    const s = seen[0] as Seen;
    expect(s.path).toBe("/slack/events");
    expect(s.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(verifies(s)).toBe(true);
    expect(Math.abs(Number(s.headers["x-slack-request-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    const form = lastForm();
    expect(form).toMatchObject({
      command: "/insights",
      text: "last7d",
      team_id: DEMO.teamId,
      user_id: DEMO.member,
      user_name: "max",
      channel_id: DEMO.general,
      channel_name: "general",
      api_app_id: "A0INSIGHTS",
      is_enterprise_install: "false",
    });
    expect(form.enterprise_id).toBeUndefined();
    expect(form.response_url).toBe(r.responseUrl);
    expect(form.response_url?.startsWith(`${slack.baseUrl}/response/`)).toBe(true);
    expect(form.trigger_id).toBe(r.triggerId);
    // The minted trigger really opens a modal within its 3 s.
    const view = { type: "modal" as const, title: { type: "plain_text" as const, text: "Hi" }, blocks: [] };
    expect((await web().views.open({ trigger_id: r.triggerId as string, view })).ok).toBe(true);
  });

  it("can be unsigned, wrongly signed, replayed, or marked as a retry", async () => {
    const base = { teamId: DEMO.teamId, userId: DEMO.admin, channelId: DEMO.general, text: "help" };
    await slack.sendCommand({ ...base, sign: "none" });
    expect(seen[0]?.headers["x-slack-signature"]).toBeUndefined();
    expect(seen[0]?.headers["x-slack-request-timestamp"]).toBeUndefined();
    await slack.sendCommand({ ...base, sign: "bad" });
    expect(seen[1]?.headers["x-slack-signature"]).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(verifies(seen[1] as Seen)).toBe(false);
    await slack.sendCommand({ ...base, sign: "old" });
    const age = Date.now() / 1000 - Number(seen[2]?.headers["x-slack-request-timestamp"]);
    expect(age).toBeGreaterThan(355);
    expect(age).toBeLessThan(365);
    expect(verifies(seen[2] as Seen)).toBe(true);
    await slack.sendCommand({ ...base, retryNum: 2 });
    expect(seen[3]?.headers["x-slack-retry-num"]).toBe("2");
    expect(seen[3]?.headers["x-slack-retry-reason"]).toBe("http_timeout");
    expect(verifies(seen[3] as Seen)).toBe(true);
  });

  it("carries enterprise ids when asked", async () => {
    await slack.sendCommand({
      ...inGeneral(DEMO.admin),
      text: "",
      enterpriseId: "E0ORG0001",
    });
    expect(lastForm().enterprise_id).toBe("E0ORG0001");
  });

  it("reports an unreachable app as status 0", async () => {
    const r = await slack.sendCommand({
      ...inGeneral(DEMO.admin),
      text: "",
      url: `http://127.0.0.1:${await freePort()}/slack/events`,
    });
    expect(r.status).toBe(0);
    expect(r.error).toBeTruthy();
  });
});

describe("interactions", () => {
  const blocks = [
    {
      type: "actions",
      block_id: "ranges",
      elements: [
        {
          type: "button",
          action_id: "range_30",
          text: { type: "plain_text", text: "30 days" },
          value: "last30d",
        },
        {
          type: "static_select",
          action_id: "asset",
          placeholder: { type: "plain_text", text: "Asset" },
          options: [{ text: { type: "plain_text", text: "payments / api" }, value: "a1" }],
        },
      ],
    },
  ];

  it("send block_actions for a posted message with its container, message and response_url", async () => {
    const { ts } = await web().chat.postMessage({ channel: DEMO.general, text: "digest", blocks });
    const r = await slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      channelId: DEMO.general,
      message: { ts: ts as string },
      actions: [clickButton(blocks, "range_30")],
    });
    expect(verifies(seen[0] as Seen)).toBe(true);
    const p = lastPayload();
    expect(p).toMatchObject({
      type: "block_actions",
      user: { id: DEMO.admin, team_id: DEMO.teamId },
      team: { id: DEMO.teamId, domain: "demo-co" },
      api_app_id: "A0INSIGHTS",
      container: { type: "message", message_ts: ts, channel_id: DEMO.general, is_ephemeral: false },
      channel: { id: DEMO.general, name: "general" },
      message: { ts, text: "digest", blocks },
      response_url: r.responseUrl,
      trigger_id: r.triggerId,
      state: { values: {} },
    });
    expect(p.actions[0]).toMatchObject({
      type: "button",
      action_id: "range_30",
      block_id: "ranges",
      value: "last30d",
    });
    const select = chooseOption(blocks, "asset", "a1");
    expect(select).toMatchObject({
      type: "static_select",
      block_id: "ranges",
      selected_option: { value: "a1" },
    });
  });

  it("mark actions on ephemeral messages and leave the message out, as Slack does", async () => {
    const eph = await web().chat.postEphemeral({
      channel: DEMO.general,
      user: DEMO.member,
      text: "digest",
      blocks,
    });
    await slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      message: { ts: eph.message_ts as string },
      actions: [chooseOption(blocks, "asset", "a1")],
    });
    const p = lastPayload();
    expect(p.container).toMatchObject({ is_ephemeral: true, message_ts: eph.message_ts });
    expect(p.message).toBeUndefined();
  });

  it("send view submissions filled from the opened view and apply the app's answer", async () => {
    const modal = connectModal("meta-1");
    const { view } = await web().views.open({
      trigger_id: slack.mintTriggerId(DEMO.teamId, DEMO.admin),
      view: modal,
    });
    const values = { key: { value: { type: "plain_text_input", value: "k-123" } } };
    reply = () => ({
      status: 200,
      body: { response_action: "errors", errors: { key: "That key was refused" } },
    });
    const r = await slack.sendViewSubmission({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { id: view?.id as string },
      values,
    });
    expect(r.body).toMatchObject({ response_action: "errors" });
    const p = lastPayload();
    expect(p).toMatchObject({
      type: "view_submission",
      trigger_id: r.triggerId,
      view: { id: view?.id, callback_id: "connect", private_metadata: "meta-1", state: { values } },
    });
    expect(slack.views()[0]?.closed).toBe(false);
    reply = () => ({ status: 200 });
    await slack.sendViewSubmission({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { id: view?.id as string },
      values,
    });
    expect(slack.views()[0]?.closed).toBe(true);
  });

  it("send actions from a view, whose trigger can push onto the stack", async () => {
    const home = { type: "home" as const, blocks };
    const { view } = await web().views.publish({ user_id: DEMO.admin, view: home });
    const r = await slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { id: view?.id as string },
      actions: [clickButton(blocks, "range_30")],
    });
    const p = lastPayload();
    expect(p.container).toEqual({ type: "view", view_id: view?.id });
    expect(p.view.blocks).toEqual(blocks);
    expect(p.response_url).toBeUndefined();
    expect(r.responseUrl).toBeUndefined();
    const modal = {
      type: "modal" as const,
      title: { type: "plain_text" as const, text: "Subscribe" },
      blocks: [],
    };
    const opened = await web().views.open({ trigger_id: r.triggerId as string, view: modal });
    expect(opened.view?.type).toBe("modal");
  });

  it("send options requests and return the app's options", async () => {
    const select = {
      type: "section",
      block_id: "filter",
      text: { type: "mrkdwn", text: "Asset" },
      accessory: { type: "external_select", action_id: "asset_search", min_query_length: 2 },
    };
    const modal = {
      type: "modal" as const,
      title: { type: "plain_text" as const, text: "Filter" },
      blocks: [select],
    };
    const { view } = await web().views.open({
      trigger_id: slack.mintTriggerId(DEMO.teamId, DEMO.member),
      view: modal,
    });
    const options = [{ text: { type: "plain_text", text: "payments / api" }, value: "a1" }];
    reply = () => ({ status: 200, body: { options } });
    const r = await slack.sendOptions({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      actionId: "asset_search",
      value: "pay",
      viewId: view?.id,
    });
    expect(r.body).toEqual({ options });
    expect(lastPayload()).toMatchObject({
      type: "block_suggestion",
      action_id: "asset_search",
      block_id: "filter",
      value: "pay",
      container: { type: "view", view_id: view?.id },
    });
  });
});

describe("events", () => {
  it("send signed JSON event_callback envelopes with the app's authorization", async () => {
    await slack.sendEvent({
      teamId: DEMO.teamId,
      event: slackEvents.appHomeOpened(DEMO.member, "D0MEMBER1"),
    });
    const s = seen[0] as Seen;
    expect(s.headers["content-type"]).toBe("application/json");
    expect(verifies(s)).toBe(true);
    const body = JSON.parse(s.raw);
    expect(body).toMatchObject({
      type: "event_callback",
      team_id: DEMO.teamId,
      api_app_id: "A0INSIGHTS",
      event: { type: "app_home_opened", user: DEMO.member, tab: "home" },
      authorizations: [{ team_id: DEMO.teamId, user_id: DEMO.botUserId, is_bot: true }],
    });
    expect(body.event_id).toMatch(/^Ev/);
    expect(typeof body.event_time).toBe("number");
    await slack.sendEvent({
      teamId: DEMO.teamId,
      enterpriseId: "E0ORG0001",
      event: slackEvents.appUninstalled(),
      eventId: body.event_id,
      retryNum: 1,
    });
    const again = JSON.parse(seen[1]?.raw ?? "{}");
    expect(again).toMatchObject({
      event_id: body.event_id,
      enterprise_id: "E0ORG0001",
      event: { type: "app_uninstalled" },
    });
    expect(seen[1]?.headers["x-slack-retry-num"]).toBe("1");
  });

  it("send org-wide install shapes: team null in interactions and authorizations, no team at all for team_access_revoked", async () => {
    const org = { id: "E0ORGWIDE", name: "Org" };
    slack.addWorkspace({
      teamId: "T0ORGWIDE",
      name: "Org wide",
      botToken: "xoxb-org-wide",
      enterprise: org,
      isEnterpriseInstall: true,
      users: [{ id: "U0ORGUSER" }],
      channels: [{ id: "C0ORGWIDE", name: "general" }],
    });
    await slack.sendBlockAction({
      teamId: "T0ORGWIDE",
      userId: "U0ORGUSER",
      channelId: "C0ORGWIDE",
      actions: [],
    });
    expect(lastPayload()).toMatchObject({
      team: null,
      user: { id: "U0ORGUSER", team_id: "T0ORGWIDE" },
      enterprise: org,
      is_enterprise_install: true,
    });
    await slack.sendEvent({
      teamId: "T0ORGWIDE",
      event: slackEvents.appHomeOpened("U0ORGUSER", "D0ORGUSER"),
    });
    expect(JSON.parse(seen.at(-1)?.raw ?? "{}")).toMatchObject({
      team_id: "T0ORGWIDE",
      enterprise_id: org.id,
      authorizations: [{ enterprise_id: org.id, team_id: null, is_enterprise_install: true }],
    });
    await slack.sendEvent({ teamId: "T0ORGWIDE", event: slackEvents.teamAccessRevoked(["T0GONE001"]) });
    expect(JSON.parse(seen.at(-1)?.raw ?? "{}")).toMatchObject({
      team_id: null,
      enterprise_id: org.id,
      event: { type: "team_access_revoked", team_ids: ["T0GONE001"] },
    });
  });

  it("send Slack Connect shapes: a partner's user names their own workspace in team and user.team_id", async () => {
    await slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      payloadTeam: { id: "T0PARTNER", domain: "partner" },
      actions: [],
    });
    expect(lastPayload()).toMatchObject({ team: { id: "T0PARTNER" }, user: { team_id: "T0PARTNER" } });
  });

  it("send url_verification and return the echoed challenge", async () => {
    reply = (s) => ({ status: 200, body: { challenge: JSON.parse(s.raw).challenge } });
    const r = await slack.sendUrlVerification({ challenge: "c-42" });
    expect(JSON.parse(seen[0]?.raw ?? "{}")).toMatchObject({ type: "url_verification", challenge: "c-42" });
    expect(r.body).toEqual({ challenge: "c-42" });
  });
});

describe("with a real Bolt app", () => {
  let app: App;

  beforeAll(async () => {
    const port = await freePort();
    app = new App({
      signingSecret: SECRET,
      token: DEMO.botToken,
      clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
      logger: quiet,
    });
    app.command("/insights", async ({ ack, respond, command }) => {
      await ack();
      await respond({ response_type: "ephemeral", text: `pong ${command.text}` });
    });
    app.event("app_home_opened", async ({ event, client }) => {
      await client.views.publish({
        user_id: event.user,
        view: { type: "home", blocks: [{ type: "divider" }] },
      });
    });
    await app.start(port);
    slack.setAppUrl(`http://127.0.0.1:${port}/slack/events`);
  });

  afterAll(async () => {
    await app.stop();
  });

  it("accepts signed deliveries, refuses bad ones, and talks back through the stand-in", async () => {
    const base = { teamId: DEMO.teamId, userId: DEMO.member, channelId: DEMO.general, text: "last7d" };
    const ok = await slack.sendCommand(base);
    expect(ok.status).toBe(200);
    const eph = await slack.waitFor(() => slack.ephemerals(DEMO.member)[0], { timeoutMs: 5000 });
    expect(eph.text).toBe("pong last7d");
    expect(slack.responses(ok.responseUrl)[0]?.outcome).toBe("ephemeral");
    for (const sign of ["none", "bad", "old"] as const)
      expect((await slack.sendCommand({ ...base, sign })).status).toBe(401);
    await slack.sendEvent({ teamId: DEMO.teamId, event: slackEvents.appHomeOpened(DEMO.admin, "D0ADMIN01") });
    const home = await slack.waitFor(() => slack.homeView(DEMO.admin), { timeoutMs: 5000 });
    expect(home.view.blocks).toEqual([{ type: "divider" }]);
    expect(slack.calls({ method: "auth.test", ok: true }).length).toBeGreaterThan(0);
  });
});
