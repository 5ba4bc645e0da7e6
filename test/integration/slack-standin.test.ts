import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { METHOD_SCOPES } from "../../sandbox/slack/api/scopes.ts";
import {
  API_METHODS,
  DEMO,
  defaultWorkspace,
  RESPONSE_URL_TTL_MS,
  type SlackStandIn,
  startSlackStandIn,
  TRIGGER_TTL_MS,
} from "../../sandbox/slack/index.ts";
import { connectModal, inGeneral, quiet } from "./standin-fixtures.ts";

const { WebClient } = webApi;
const SECRET = "test-signing-secret-1234";
const CLIENT_ID = "1111.2222";
const CLIENT_SECRET = "client-secret-xyz";
/** A fixed winter instant so tz offsets are the standard ones. */
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

let clock = T0;
let slack: SlackStandIn;
let app: Server;

/** `null`: a client without a token (a default parameter would swallow `undefined`). */
function client(token: string | null = DEMO.botToken, extra: Record<string, unknown> = {}) {
  return new WebClient(token ?? undefined, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: quiet,
    ...extra,
  });
}

/** The error a WebClient call rejects with (fails the test when it resolves). */
async function failure(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail");
}

const rotating = {
  ...defaultWorkspace(),
  teamId: "T0ROTATE1",
  name: "Rotate Inc",
  botToken: "xoxb-rotate-seed",
  botUserId: "U0BOTROT1",
  tokenRotation: true,
  enterprise: { id: "E0GRID001", name: "Grid Org" },
  users: [{ id: "U0ROTADM1", isAdmin: true }],
  channels: [{ id: "C0ROTGEN1", name: "general" }],
};

beforeAll(async () => {
  // A do-nothing app, so sendCommand / sendBlockAction can mint response_urls.
  app = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/events`;
  slack = await startSlackStandIn({
    signingSecret: SECRET,
    appUrl,
    now: () => clock,
    workspaces: [defaultWorkspace(), rotating],
    oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, rotationGraceMs: 10_000 },
  });
});

afterAll(async () => {
  await slack.close();
  await new Promise((r) => app.close(r));
});

beforeEach(() => {
  clock = T0;
  slack.reset();
});

describe("Web API basics", () => {
  it("answers auth.test for the seeded bot token", async () => {
    const r = await client().auth.test();
    expect(r).toMatchObject({ ok: true, team_id: DEMO.teamId, user_id: DEMO.botUserId, team: "Demo Co" });
    expect(slack.calls({ method: "auth.test" })).toHaveLength(1);
  });

  it("posts a message, stores it and records the call without the token", async () => {
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*Findings* 12" } }];
    const r = await client().chat.postMessage({ channel: DEMO.general, text: "Weekly digest", blocks });
    expect(r.ok).toBe(true);
    expect(r.channel).toBe(DEMO.general);
    expect(r.ts).toMatch(/^\d+\.\d{6}$/);
    const [msg] = slack.messages(DEMO.general);
    expect(msg).toMatchObject({ ts: r.ts, text: "Weekly digest", blocks, user: DEMO.botUserId });
    const [call] = slack.calls({ method: "chat.postMessage" });
    expect(call).toMatchObject({ teamId: DEMO.teamId, ok: true, status: 200, at: T0 });
    // The WebClient sent blocks as a JSON string inside a form; the record holds them decoded.
    expect(call?.args.blocks).toEqual(blocks);
    expect(JSON.stringify(call?.args)).not.toContain(DEMO.botToken);
  });

  it("accepts JSON bodies with a bearer token", async () => {
    const res = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        Authorization: `Bearer ${DEMO.botToken}`,
      },
      body: JSON.stringify({ channel: DEMO.security, blocks: [{ type: "divider" }], text: "json" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, channel: DEMO.security });
    expect(slack.messages(DEMO.security)[0]?.blocks).toEqual([{ type: "divider" }]);
  });

  it("refuses a JSON body where Slack reads only forms, and a token inside a JSON body", async () => {
    const post = async (method: string, headers: Record<string, string>, body: unknown) => {
      const res = await fetch(`${slack.apiUrl}${method}`, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const bearer = { Authorization: `Bearer ${DEMO.botToken}` };
    const reserve = await post("files.getUploadURLExternal", bearer, { filename: "a.png", length: 10 });
    expect(reserve).toMatchObject({ ok: false, error: "invalid_arguments" });
    expect(JSON.stringify(reserve)).toContain("files.getUploadURLExternal does not read a JSON body");
    expect(await post("users.info", bearer, { user: DEMO.member })).toMatchObject({
      ok: false,
      error: "invalid_arguments",
    });
    const inBody = await post(
      "chat.postMessage",
      {},
      { token: DEMO.botToken, channel: DEMO.security, text: "x" },
    );
    expect(inBody).toMatchObject({ ok: false, error: "not_authed" });
    expect(slack.messages(DEMO.security)).toHaveLength(0);
  });

  it("says invalid_auth for unknown and revoked tokens, not_authed without one", async () => {
    expect((await failure(client("xoxb-nope").auth.test())).data.error).toBe("invalid_auth");
    expect((await failure(client(null).auth.test())).data.error).toBe("not_authed");
    expect(slack.revokeToken(DEMO.botToken)).toBe(true);
    const err = await failure(client().chat.postMessage({ channel: DEMO.general, text: "x" }));
    expect(err.code).toBe("slack_webapi_platform_error");
    expect(err.data.error).toBe("invalid_auth");
    expect(slack.calls({ error: "invalid_auth" }).map((c) => c.teamId)).toEqual([undefined, DEMO.teamId]);
  });

  it("refuses channels the way Slack does", async () => {
    const post = (channel: string) => failure(client().chat.postMessage({ channel, text: "x" }));
    expect((await post("C0MISSING")).data.error).toBe("channel_not_found");
    expect((await post(DEMO.noBot)).data.error).toBe("not_in_channel");
    expect((await post(DEMO.archived)).data.error).toBe("is_archived");
    slack.addChannel(DEMO.teamId, { id: "G0SECRET1", name: "secret", isPrivate: true, botMember: false });
    expect((await post("G0SECRET1")).data.error).toBe("channel_not_found");
    slack.setChannel(DEMO.general, { archived: true });
    expect((await post(DEMO.general)).data.error).toBe("is_archived");
    slack.deleteChannel(DEMO.security);
    expect((await post(DEMO.security)).data.error).toBe("channel_not_found");
    expect(slack.calls({ method: "chat.postMessage", ok: true })).toHaveLength(0);
  });

  it("rejects blocks over Block Kit limits with invalid_blocks and a list of errors", async () => {
    const header = { type: "header", text: { type: "plain_text", text: "x".repeat(151) } };
    const err = await failure(
      client().chat.postMessage({ channel: DEMO.general, text: "t", blocks: [header] }),
    );
    expect(err.data.error).toBe("invalid_blocks");
    expect(err.data.errors).toEqual(["must be less than 151 characters [json-pointer:/blocks/0/text/text]"]);
    const many = Array.from({ length: 51 }, () => ({ type: "divider" }));
    const err2 = await failure(client().chat.postMessage({ channel: DEMO.general, text: "t", blocks: many }));
    expect(err2.data.error).toBe("invalid_blocks");
    expect(slack.messages(DEMO.general)).toHaveLength(0);
  });

  it("needs text or blocks and parses blocks strictly", async () => {
    expect((await failure(client().chat.postMessage({ channel: DEMO.general } as never))).data.error).toBe(
      "no_text",
    );
    const res = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: DEMO.botToken, channel: DEMO.general, blocks: "[{" }).toString(),
    });
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_blocks_format" });
  });

  it("answers unknown methods with unknown_method", async () => {
    const err = await failure(client().apiCall("nope.nothing"));
    expect(err.data.error).toBe("unknown_method");
  });

  it("updates, deletes and posts ephemerals", async () => {
    const c = client();
    const { ts } = await c.chat.postMessage({ channel: DEMO.general, text: "v1" });
    await c.chat.update({ channel: DEMO.general, ts: ts as string, text: "v2" });
    expect(slack.messages(DEMO.general)[0]).toMatchObject({ text: "v2" });
    expect(slack.messages(DEMO.general)[0]?.editedAt).toBe(T0);
    await c.chat.delete({ channel: DEMO.general, ts: ts as string });
    expect(slack.messages(DEMO.general)).toHaveLength(0);
    expect(
      (await failure(c.chat.update({ channel: DEMO.general, ts: "1.000001", text: "x" }))).data.error,
    ).toBe("message_not_found");
    const eph = await c.chat.postEphemeral({ channel: DEMO.general, user: DEMO.member, text: "only you" });
    expect(slack.ephemerals(DEMO.member)).toEqual([
      expect.objectContaining({ ts: eph.message_ts, text: "only you" }),
    ]);
    expect(slack.ephemerals(DEMO.admin)).toHaveLength(0);
  });
});

describe("scopes", () => {
  it("declares the scopes of every method it speaks", () => {
    expect(Object.keys(API_METHODS).filter((m) => !(m in METHOD_SCOPES))).toEqual([]);
  });

  it("answers missing_scope with needed and provided, as Slack does, by the kind of channel", async () => {
    slack.setScopes(DEMO.teamId, ["chat:write", "channels:read"]);
    const users = await failure(client().users.info({ user: DEMO.admin }));
    expect(users.data).toMatchObject({
      ok: false,
      error: "missing_scope",
      needed: "users:read",
      provided: "chat:write,channels:read",
    });
    expect((await client().conversations.info({ channel: DEMO.general })).ok).toBe(true);
    slack.addChannel(DEMO.teamId, { id: "C0PRIVATE", name: "private", isPrivate: true });
    const priv = await failure(client().conversations.info({ channel: "C0PRIVATE" }));
    expect(priv.data).toMatchObject({ error: "missing_scope", needed: "groups:read" });
    const dm = await failure(client().chat.postMessage({ channel: DEMO.member, text: "hi" }));
    expect(dm.data).toMatchObject({ error: "missing_scope", needed: "im:write" });
    expect(slack.calls({ error: "missing_scope" }).map((c) => c.needed)).toEqual([
      "users:read",
      "groups:read",
      "im:write",
    ]);
  });

  it("grants an OAuth install the scopes its authorize URL asked for", async () => {
    const res = await fetch(
      `${slack.baseUrl}/oauth/v2/authorize?client_id=x&scope=chat:write,commands&redirect_uri=${encodeURIComponent("http://127.0.0.1:9/back")}`,
      { redirect: "manual" },
    );
    const code = new URL(String(res.headers.get("location"))).searchParams.get("code") as string;
    const reply = await client(null).oauth.v2.access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code,
    });
    expect(reply.scope).toBe("chat:write,commands");
    expect((await failure(client().users.info({ user: DEMO.admin }))).data.needed).toBe("users:read");
  });
});

describe("rate limits and injected faults", () => {
  it("answers 429 with Retry-After past one message per second per channel", async () => {
    const c = client(DEMO.botToken, { rejectRateLimitedCalls: true });
    await c.chat.postMessage({ channel: DEMO.general, text: "1" });
    const err = await failure(c.chat.postMessage({ channel: DEMO.general, text: "2" }));
    expect(err.code).toBe("slack_webapi_rate_limited_error");
    expect(err.retryAfter).toBe(1);
    // Other channels have their own budget.
    await c.chat.postMessage({ channel: DEMO.security, text: "elsewhere" });
    const raw = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${DEMO.botToken}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: `channel=${DEMO.general}&text=3`,
    });
    expect(raw.status).toBe(429);
    expect(raw.headers.get("retry-after")).toBe("1");
    expect(await raw.json()).toEqual({ ok: false, error: "ratelimited" });
    clock += 1000;
    await c.chat.postMessage({ channel: DEMO.general, text: "after waiting" });
    expect(slack.messages(DEMO.general).map((m) => m.text)).toEqual(["1", "after waiting"]);
    expect(slack.calls({ error: "ratelimited" })).toHaveLength(2);
  });

  it("can raise or switch off the rate limit", async () => {
    slack.setRateLimit({ perChannelPerSecond: 3 });
    const c = client(DEMO.botToken, { rejectRateLimitedCalls: true });
    for (const n of [1, 2, 3]) await c.chat.postMessage({ channel: DEMO.general, text: String(n) });
    expect((await failure(c.chat.postMessage({ channel: DEMO.general, text: "4" }))).code).toBe(
      "slack_webapi_rate_limited_error",
    );
    slack.setRateLimit({ enabled: false });
    for (const n of [5, 6, 7, 8]) await c.chat.postMessage({ channel: DEMO.general, text: String(n) });
    expect(slack.messages(DEMO.general)).toHaveLength(7);
  });

  it("injects platform errors and HTTP failures for a number of calls", async () => {
    slack.injectError("chat.postMessage", "fatal_error", 2);
    const c = client();
    for (let i = 0; i < 2; i++)
      expect((await failure(c.chat.postMessage({ channel: DEMO.general, text: "x" }))).data.error).toBe(
        "fatal_error",
      );
    await c.chat.postMessage({ channel: DEMO.general, text: "third time" });
    slack.injectHttp("users.info", 503);
    const err = await failure(c.users.info({ user: DEMO.admin }));
    expect(err.code).toBe("slack_webapi_http_error");
    expect(err.statusCode).toBe(503);
    slack.injectHttp("users.info", 429, { retryAfter: 7 });
    const limited = await failure(
      client(DEMO.botToken, { rejectRateLimitedCalls: true }).users.info({ user: DEMO.admin }),
    );
    expect(limited.retryAfter).toBe(7);
    expect((await c.users.info({ user: DEMO.admin })).ok).toBe(true);
  });

  it("answers a slowed method after its latency, records the call when it arrives, and leaves others alone", async () => {
    const c = client();
    slack.setLatency("users.info", 300);
    const order: string[] = [];
    const calls = slack.calls().length;
    const slow = c.users.info({ user: DEMO.admin }).then(() => order.push("users.info"));
    // The slowed call is recorded on arrival, before its answer: a check can see it while it waits.
    await slack.waitFor(() => slack.calls().length > calls);
    await c.auth.test().then(() => order.push("auth.test"));
    await slow;
    expect(order).toEqual(["auth.test", "users.info"]);
    expect(() => slack.setLatency("users.info", -1)).toThrow(/latency/);
    slack.setLatency("users.info", 0);
  });
});

describe("views", () => {
  const modal = connectModal('{"channel":"C0GENERAL"}');

  it("opens a modal with a fresh trigger and refuses expired, unknown or reused ones", async () => {
    const c = client();
    const trigger = slack.mintTriggerId(DEMO.teamId, DEMO.admin);
    const r = await c.views.open({ trigger_id: trigger, view: modal });
    expect(r.view).toMatchObject({
      type: "modal",
      callback_id: "connect",
      team_id: DEMO.teamId,
      root_view_id: r.view?.id,
    });
    expect(slack.views()).toEqual([
      expect.objectContaining({ id: r.view?.id, userId: DEMO.admin, closed: false }),
    ]);
    expect((await failure(c.views.open({ trigger_id: trigger, view: modal }))).data.error).toBe(
      "exchanged_trigger_id",
    );
    expect((await failure(c.views.open({ trigger_id: "123.456.abc", view: modal }))).data.error).toBe(
      "invalid_trigger_id",
    );
    const late = slack.mintTriggerId(DEMO.teamId, DEMO.admin);
    clock += TRIGGER_TTL_MS + 1;
    expect((await failure(c.views.open({ trigger_id: late, view: modal }))).data.error).toBe(
      "invalid_trigger_id",
    );
  });

  it("checks views against limits, updates with hash and publishes Home tabs", async () => {
    const c = client();
    const longTitle = {
      ...modal,
      title: { type: "plain_text" as const, text: "A title far longer than 24" },
    };
    const bad = await failure(
      c.views.open({ trigger_id: slack.mintTriggerId(DEMO.teamId, DEMO.admin), view: longTitle }),
    );
    expect(bad.data.error).toBe("invalid_blocks");
    expect(bad.data.errors.join(" ")).toContain("title");
    const { view } = await c.views.open({
      trigger_id: slack.mintTriggerId(DEMO.teamId, DEMO.admin),
      view: modal,
    });
    const updated = await c.views.update({
      view_id: view?.id as string,
      hash: view?.hash as string,
      view: { ...modal, callback_id: "connect2" },
    });
    expect(updated.view?.callback_id).toBe("connect2");
    expect(
      (
        await failure(
          c.views.update({ view_id: view?.id as string, hash: view?.hash as string, view: modal }),
        )
      ).data.error,
    ).toBe("hash_conflict");
    const home = {
      type: "home" as const,
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "Hi" } }],
    };
    const first = await c.views.publish({ user_id: DEMO.member, view: home });
    const second = await c.views.publish({
      user_id: DEMO.member,
      view: { ...home, blocks: [{ type: "divider" }] },
    });
    expect(second.view?.id).toBe(first.view?.id);
    expect(slack.homeView(DEMO.member)?.view.blocks).toEqual([{ type: "divider" }]);
    expect((await failure(c.views.publish({ user_id: "U0NOBODY1", view: home }))).data.error).toBe(
      "user_not_found",
    );
  });
});

describe("directory", () => {
  it("returns users with role flags and time zones", async () => {
    const c = client();
    const admin = (await c.users.info({ user: DEMO.admin })).user;
    expect(admin).toMatchObject({
      id: DEMO.admin,
      tz: "Europe/Berlin",
      tz_offset: 3600,
      is_admin: true,
      is_owner: false,
    });
    expect(admin?.is_restricted).toBe(false);
    expect(admin?.deleted).toBe(false);
    const member = (await c.users.info({ user: DEMO.member })).user;
    expect(member).toMatchObject({ tz: "America/Los_Angeles", tz_offset: -28800, is_admin: false });
    const owner = (await c.users.info({ user: DEMO.owner })).user;
    expect(owner).toMatchObject({
      tz: "Asia/Kolkata",
      tz_offset: 19800,
      is_owner: true,
      is_primary_owner: true,
    });
    clock = Date.UTC(2026, 6, 1);
    expect((await c.users.info({ user: DEMO.admin })).user?.tz_offset).toBe(7200);
    expect((await failure(c.users.info({ user: "U0NOBODY1" }))).data.error).toBe("user_not_found");
  });

  it("describes channels with membership and archive flags", async () => {
    const c = client();
    expect((await c.conversations.info({ channel: DEMO.general })).channel).toMatchObject({
      id: DEMO.general,
      name: "general",
      is_member: true,
      is_archived: false,
      is_private: false,
    });
    expect((await c.conversations.info({ channel: DEMO.noBot })).channel?.is_member).toBe(false);
    expect((await c.conversations.info({ channel: DEMO.archived })).channel?.is_archived).toBe(true);
    expect((await failure(c.conversations.info({ channel: "C0MISSING" }))).data.error).toBe(
      "channel_not_found",
    );
  });
});

describe("file uploads", () => {
  it("runs filesUploadV2's three steps and posts the file with its comment", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(2048, 7)]);
    const r = await client().filesUploadV2({
      channel_id: DEMO.general,
      file: png,
      filename: "trend.png",
      title: "Trend",
      initial_comment: "Daily findings",
    });
    expect(r.ok).toBe(true);
    expect(slack.calls().map((c) => c.method)).toEqual([
      "files.getUploadURLExternal",
      "upload",
      "files.completeUploadExternal",
    ]);
    const [file] = slack.files();
    expect(file).toMatchObject({
      filename: "trend.png",
      title: "Trend",
      size: png.length,
      declaredLength: png.length,
    });
    expect(file?.bytes?.equals(png)).toBe(true);
    expect(file?.contentType).toBeTruthy();
    expect(slack.messages(DEMO.general)).toEqual([
      expect.objectContaining({ text: "Daily findings", files: [file?.id] }),
    ]);
    expect((await client().files.info({ file: file?.id as string })).file?.size).toBe(png.length);
  });

  it("accepts raw bytes at the upload URL and refuses completion in a channel the bot is not in", async () => {
    const c = client();
    const { upload_url, file_id } = await c.files.getUploadURLExternal({ filename: "a.csv", length: 5 });
    const put = await fetch(upload_url as string, {
      method: "POST",
      headers: { "Content-Type": "text/csv" },
      body: "a,b\n1",
    });
    expect(put.status).toBe(200);
    expect(slack.files()[0]).toMatchObject({ size: 5, contentType: "text/csv" });
    const err = await failure(
      c.files.completeUploadExternal({ files: [{ id: file_id as string }], channel_id: DEMO.noBot }),
    );
    expect(err.data.error).toBe("not_in_channel");
  });

  /** A PNG's first bytes with a 640×360 IHDR, then padding. */
  const png = Buffer.concat([
    Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
    Buffer.from([0, 0, 2, 128, 0, 0, 1, 104]),
    Buffer.alloc(512, 7),
  ]);
  const imageBlock = (id: string) => ({ type: "image", slack_file: { id }, alt_text: "trend" });

  async function upload(extra: Record<string, string> = {}): Promise<string> {
    const c = client();
    const got = (await c.apiCall("files.getUploadURLExternal", {
      filename: "t.png",
      length: png.length,
      ...extra,
    })) as { upload_url?: string; file_id?: string };
    await fetch(got.upload_url as string, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: png,
    });
    await c.files.completeUploadExternal({ files: [{ id: got.file_id as string, title: "Trend" }] });
    return got.file_id as string;
  }

  it("processes a file for a moment: no mimetype and invalid_blocks for an image naming it, then both work", async () => {
    const c = client();
    const id = await upload();
    expect((await c.files.info({ file: id })).file).toMatchObject({ id, mimetype: "" });
    const early = await failure(
      c.chat.postMessage({ channel: DEMO.general, text: "t", blocks: [imageBlock(id)] }),
    );
    expect(early.data).toMatchObject({
      error: "invalid_blocks",
      errors: ["invalid slack file [json-pointer:/blocks/0/slack_file]"],
    });
    clock += 300;
    expect((await c.files.info({ file: id })).file).toMatchObject({
      mimetype: "image/png",
      original_w: 640,
      original_h: 360,
    });
    const ok = await c.chat.postMessage({ channel: DEMO.general, text: "t", blocks: [imageBlock(id)] });
    expect(ok.ok).toBe(true);
    const unknown = await failure(
      c.chat.postMessage({ channel: DEMO.general, text: "t", blocks: [imageBlock("F0NOSUCH01")] }),
    );
    expect(unknown.data.errors).toEqual(["invalid slack file [json-pointer:/blocks/0/slack_file]"]);
    slack.setFileProcessing(60_000);
    const slow = await upload();
    clock += 59_000;
    expect((await c.files.info({ file: slow })).file?.mimetype).toBe("");
  });

  it("takes the image description as alt_txt (alt_text is ignored) and refuses one over 1,000 characters", async () => {
    const withAlt = await upload({ alt_txt: "Daily findings" });
    const wrongName = await upload({ alt_text: "Daily findings" });
    expect(slack.files().find((f) => f.id === withAlt)?.altText).toBe("Daily findings");
    expect(slack.files().find((f) => f.id === wrongName)?.altText).toBeUndefined();
    expect((await client().files.info({ file: withAlt })).file).toMatchObject({ alt_txt: "Daily findings" });
    const long = await failure(
      client().apiCall("files.getUploadURLExternal", {
        filename: "t.png",
        length: 10,
        alt_txt: "x".repeat(1_001),
      }),
    );
    expect(long.data.error).toBe("alt_txt_too_large");
  });
});

describe("response_url", () => {
  async function post(url: string, body: unknown) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it("works five times, then refuses with used_url", async () => {
    const sent = await slack.sendCommand({
      ...inGeneral(),
      text: "",
    });
    const url = sent.responseUrl as string;
    for (let i = 1; i <= 5; i++) expect((await post(url, { text: `reply ${i}` })).status).toBe(200);
    const sixth = await post(url, { text: "reply 6" });
    expect(sixth).toEqual({ status: 404, body: { ok: false, error: "used_url" } });
    expect(slack.ephemerals(DEMO.member)).toHaveLength(5);
    expect(slack.responses(url).map((r) => r.outcome)).toEqual([...Array(5).fill("ephemeral"), "rejected"]);
  });

  it("expires after thirty minutes", async () => {
    const { responseUrl } = await slack.sendCommand({
      ...inGeneral(),
      text: "",
    });
    clock += RESPONSE_URL_TTL_MS + 1;
    expect(await post(responseUrl as string, { text: "late" })).toEqual({
      status: 404,
      body: { ok: false, error: "expired_url" },
    });
  });

  it("posts in channel, and replaces or deletes the message an action came from", async () => {
    const { ts } = await client().chat.postMessage({ channel: DEMO.general, text: "digest v1" });
    const action = await slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      channelId: DEMO.general,
      message: { ts: ts as string },
      actions: [{ type: "button", action_id: "refresh", block_id: "b", action_ts: "1" }],
    });
    const url = action.responseUrl as string;
    expect((await post(url, { replace_original: true, text: "digest v2" })).status).toBe(200);
    expect(slack.messages(DEMO.general)).toEqual([expect.objectContaining({ ts, text: "digest v2" })]);
    expect((await post(url, { response_type: "in_channel", text: "shared" })).status).toBe(200);
    expect(slack.messages(DEMO.general).map((m) => m.text)).toEqual(["digest v2", "shared"]);
    expect((await post(url, { delete_original: true })).status).toBe(200);
    expect(slack.messages(DEMO.general).map((m) => m.text)).toEqual(["shared"]);
  });

  it("replaces an ephemeral message in place when the action came from it", async () => {
    const cmd = await slack.sendCommand({
      ...inGeneral(),
      text: "",
    });
    await post(cmd.responseUrl as string, { text: "digest", blocks: [{ type: "divider" }] });
    const [eph] = slack.ephemerals(DEMO.member);
    const action = await slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      message: { ts: eph?.ts as string },
      actions: [
        { type: "static_select", action_id: "asset", block_id: "f", selected_option: { value: "x" } },
      ],
    });
    expect(
      (await post(action.responseUrl as string, { replace_original: true, text: "filtered" })).status,
    ).toBe(200);
    expect(slack.ephemerals(DEMO.member)).toEqual([
      expect.objectContaining({ ts: eph?.ts, text: "filtered" }),
    ]);
    const bad = await post(action.responseUrl as string, {
      replace_original: true,
      blocks: [{ type: "header", text: { type: "plain_text", text: "y".repeat(200) } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_blocks");
    expect(bad.body.errors.length).toBeGreaterThan(0);
  });
});

describe("OAuth", () => {
  const oauth = () => client(null).oauth.v2;

  it("exchanges a code for the v2 install reply, once", async () => {
    const code = slack.mintOAuthCode(DEMO.teamId);
    const r = await oauth().access({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code });
    expect(r).toMatchObject({
      ok: true,
      access_token: DEMO.botToken,
      token_type: "bot",
      bot_user_id: DEMO.botUserId,
      app_id: "A0INSIGHTS",
      team: { id: DEMO.teamId, name: "Demo Co" },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: DEMO.admin },
    });
    expect(r.scope).toContain("chat:write");
    expect(r.refresh_token).toBeUndefined();
    const again = await failure(oauth().access({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code }));
    expect(again.data.error).toBe("invalid_code");
    const wrong = await failure(
      oauth().access({ client_id: CLIENT_ID, client_secret: "nope", code: slack.mintOAuthCode(DEMO.teamId) }),
    );
    expect(wrong.data.error).toBe("bad_client_secret");
  });

  it("issues codes through the authorize redirect", async () => {
    const res = await fetch(
      `${slack.baseUrl}/oauth/v2/authorize?client_id=${CLIENT_ID}&scope=chat:write&state=st4te&redirect_uri=${encodeURIComponent("http://127.0.0.1:9/slack/oauth_redirect")}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") as string);
    expect(location.searchParams.get("state")).toBe("st4te");
    const r = await oauth().access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: location.searchParams.get("code") as string,
    });
    expect(r.team).toEqual({ id: DEMO.teamId, name: "Demo Co" });
  });

  it("rotates tokens: refresh issues a new pair, the old token dies after the grace", async () => {
    const first = await oauth().access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: slack.mintOAuthCode("T0ROTATE1"),
    });
    expect(first.access_token).toMatch(/^xoxe\.xoxb-/);
    expect(first.refresh_token).toMatch(/^xoxe-/);
    expect(first.expires_in).toBe(43_200);
    expect(first.enterprise).toEqual({ id: "E0GRID001", name: "Grid Org" });
    const old = first.access_token as string;
    expect((await client(old).auth.test()).team_id).toBe("T0ROTATE1");
    const next = await oauth().access({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_type: "refresh_token",
      refresh_token: first.refresh_token as string,
    });
    expect(next.access_token).not.toBe(old);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect((await client(old).auth.test()).ok).toBe(true);
    clock += 10_001;
    expect((await failure(client(old).auth.test())).data.error).toBe("token_expired");
    expect((await client(next.access_token).auth.test()).ok).toBe(true);
    const reused = await failure(
      oauth().access({
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_type: "refresh_token",
        refresh_token: first.refresh_token as string,
      }),
    );
    expect(reused.data.error).toBe("invalid_refresh_token");
    clock += 43_200_000;
    expect((await failure(client(next.access_token).auth.test())).data.error).toBe("token_expired");
  });

  it("uninstalls: every token of the team stops working", async () => {
    await client().apps.uninstall({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    expect((await failure(client().auth.test())).data.error).toBe("invalid_auth");
  });
});

describe("waitFor", () => {
  it("resolves with the predicate's value and times out with a dump of recorded calls", async () => {
    setTimeout(() => void client().chat.postMessage({ channel: DEMO.general, text: "later" }), 30);
    const msg = await slack.waitFor(() => slack.messages(DEMO.general)[0], { timeoutMs: 2000 });
    expect(msg.text).toBe("later");
    const err = await failure(
      slack.waitFor(() => slack.messages(DEMO.security)[0], { timeoutMs: 60, what: "a post in #security" }),
    );
    expect(err.code).toBe("wait_timeout");
    expect(err.message).toContain("a post in #security");
    expect(err.message).toContain("chat.postMessage team=T0DEMO001 ok");
  });
});
