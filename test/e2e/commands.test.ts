import { describe, expect, it } from "vitest";
import { DEMO, DEMO_API_KEY } from "../../sandbox/stack.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { command, connect, useFileStack, who } from "./helpers.ts";

const textOf = (body: { text?: string; blocks?: unknown[] }) =>
  `${body.text ?? ""} ${JSON.stringify(body.blocks ?? [])}`;

const stack = useFileStack(`e2e-cmd-${process.pid}`);

describe("every /insights path", () => {
  it("before connecting, a digest says an admin must connect", async () => {
    const { body } = await command(stack, "last7d");
    expect(textOf(body)).toContain("not connected");
    expect(textOf(body)).toContain("/insights connect");
  });

  it("a member cannot connect or disconnect", async () => {
    const viewsBefore = stack.slack.views().length;
    const { body } = await command(stack, "connect", DEMO.member);
    expect(textOf(body)).toContain("Only workspace admins");
    expect(stack.slack.views().length).toBe(viewsBefore);
    // Even a forged view submission from a member is refused and stores nothing.
    const view = { callback_id: "connect_modal", private_metadata: "{}" };
    const res = await stack.slack.sendViewSubmission({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      view,
      values: { api_key: { api_key: { type: "plain_text_input", value: DEMO_API_KEY } } },
    });
    expect(JSON.stringify(res.body)).toContain("Only workspace admins");
    expect(await stack.web.deps.apiKeys.status({ teamId: DEMO.teamId })).toBeNull();
  });

  it("a wrong key is an inline modal error and is not stored", async () => {
    const { submitted } = await connect(stack, "not-a-real-key");
    expect(submitted.body).toMatchObject({ response_action: "errors" });
    expect(JSON.stringify(submitted.body)).toContain("rejected this key");
    expect(await stack.web.deps.apiKeys.status({ teamId: DEMO.teamId })).toBeNull();
  });

  it("an admin connects; status shows the key's health but never the key", async () => {
    const { submitted } = await connect(stack);
    expect(
      submitted.body === undefined ||
        (submitted.body as { response_action?: string }).response_action === "clear",
    ).toBe(true);
    const { body } = await command(stack, "status", DEMO.admin);
    expect(body.text).toContain("connected by <@U0ADMIN01>");
    expect(body.text).toContain("accepted by the service");
    expect(textOf(body)).not.toContain(DEMO_API_KEY);
  });

  it("help lists the grammar", async () => {
    const { body } = await command(stack, "help");
    for (const word of ["last7d", "thisweek", "asset:", "subscribe"]) expect(textOf(body)).toContain(word);
    expect(checkMessage(body as never)).toEqual([]);
  });

  it.each([
    ["last30d", /findings/],
    ["thisweek", /findings/],
    ["lastmonth", /findings/],
    ["2026-11-01..2026-11-07", /Nov 1 – Nov 7, 2026/],
    ['last7d asset:"payments / api"', /findings/],
    ["last7d scanner:sast", /findings/],
  ])("digest %s", async (text, expected) => {
    const { body } = await command(stack, text);
    expect(body.text).toMatch(expected);
    expect(checkMessage(body as never)).toEqual([]);
  });

  it.each([
    ["lst7d", "Did you mean `/insights last7d`"],
    ["last400d", "365"],
    ["2026-11-15..2026-11-01", "before"],
    ['asset:"no such asset"', "No asset is called"],
    ["bananas", "/insights help"],
  ])("bad input %s gets a helpful reply", async (text, expected) => {
    const { body } = await command(stack, text);
    expect(textOf(body)).toContain(expected);
    expect(checkMessage(body as never)).toEqual([]);
  });

  it("another workspace never sees this workspace's key or data", async () => {
    stack.slack.addWorkspace({
      teamId: "T0OTHER01",
      name: "Other",
      botToken: "xoxb-other-000",
      botUserId: "U0BOTOTHR",
      users: [{ id: "U0OTHER01", name: "o", tz: "UTC", isAdmin: true }],
      channels: [{ id: "C0OTHER01", name: "general" }],
    });
    const sent = await stack.slack.sendCommand({
      teamId: "T0OTHER01",
      userId: "U0OTHER01",
      channelId: "C0OTHER01",
      text: "last7d",
    });
    // Single-workspace mode refuses the foreign team outright: acked, nothing read, nothing posted.
    expect(sent.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(stack.slack.responses(sent.responseUrl)).toEqual([]);
    expect(stack.slack.calls({ method: "users.info" }).some((c) => c.args.user === "U0OTHER01")).toBe(false);
  });

  it("disconnect removes the key; digests stop", async () => {
    const { body } = await command(stack, "disconnect", DEMO.admin);
    expect(body.text).toContain("removed");
    expect(await stack.web.deps.apiKeys.status({ teamId: DEMO.teamId })).toBeNull();
    const after = await command(stack, "last7d");
    expect(textOf(after.body)).toContain("not connected");
  });

  it("acks every command well within Slack's 3 s", async () => {
    const sent = await stack.slack.sendCommand({ ...who(), text: "help" });
    expect(sent.status).toBe(200);
    expect(sent.ackMs).toBeLessThan(1000);
  });
});

describe("requests Slack signs but that name nobody", () => {
  it.each([
    ["an unknown user", { userId: "U0NOBODY1" }],
    ["no user at all", { userId: "" }],
  ])("%s gets a reply that says why, not an internal error", async (_name, who) => {
    const sent = await stack.slack.sendCommand({
      teamId: DEMO.teamId,
      channelId: DEMO.general,
      text: "last7d",
      ...who,
    });
    expect(sent.status).toBe(200);
    const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0]);
    const text = JSON.stringify(reply.body);
    expect(text).toMatch(/Slack could not tell me who you are|names no Slack user/);
    expect(text).not.toContain("Something went wrong on our side");
  });
});
