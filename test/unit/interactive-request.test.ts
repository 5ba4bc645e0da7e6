import { describe, expect, it } from "vitest";
import { parseEntry } from "../../src/interactive/stream.ts";
import { bodyOf } from "../../src/slack/frame/job-body.ts";
import { fromLegacyJob, requestOf } from "../../src/slack/frame/offload.ts";
import { legacyClick } from "../fixtures/legacy-job.ts";

const URL = "https://hooks.slack.com/actions/T1/1/x";

describe("what a handed-off request carries", () => {
  it("a slash command: its text, channel and response_url; never Slack's verification token", () => {
    const body = {
      token: "verification-token",
      command: "/insights",
      text: "last7d",
      response_url: URL,
      user_id: "U1",
      team_id: "T1",
      enterprise_id: "E1",
      is_enterprise_install: "false",
      channel_id: "C1",
      channel_name: "general",
      trigger_id: "1.2",
    };
    const job = requestOf({ kind: "command", name: "digest" }, body, 1_000, { teamId: "T1" });
    expect(job).toMatchObject({
      v: 1,
      route: { kind: "command", name: "digest" },
      team: { teamId: "T1", enterpriseId: "E1" },
      userId: "U1",
      receivedAt: 1_000,
      surface: { channelId: "C1" },
      responseUrl: URL,
      command: { text: "last7d", channelName: "general" },
    });
    expect(JSON.stringify(job)).not.toContain("verification-token");
    expect(JSON.stringify(job)).not.toContain("trigger");
    expect(bodyOf(job, "/insights")).toMatchObject({
      command: "/insights",
      text: "last7d",
      team_id: "T1",
      enterprise_id: "E1",
      user_id: "U1",
      channel_id: "C1",
      response_url: URL,
    });
  });

  it("a click on a thread reply in a channel: the clicked control, the message and its thread; not the blocks, the state or the token", () => {
    const action = { type: "button", action_id: "digest_why", block_id: "b", value: '{"r":"last7d"}' };
    const body = {
      type: "block_actions",
      token: "verification-token",
      team: { id: "T1" },
      user: { id: "U1", team_id: "T1" },
      channel: { id: "C1" },
      container: { type: "message", message_ts: "2.000", channel_id: "C1", is_ephemeral: false },
      message: { ts: "2.000", thread_ts: "1.000", blocks: new Array(40).fill({ type: "section" }) },
      state: { values: { a: { b: { value: "typed" } } } },
      response_url: URL,
      actions: [action, { action_id: "other" }],
    };
    const job = requestOf({ kind: "action", id: "digest_why" }, body, 5, {});
    expect(job.surface).toEqual({
      container: "message",
      channelId: "C1",
      messageTs: "2.000",
      threadTs: "1.000",
    });
    expect(job.action).toEqual(action);
    const text = JSON.stringify(job);
    for (const gone of ["verification-token", "typed", "section"]) expect(text).not.toContain(gone);
    const rebuilt = bodyOf(job, "/insights");
    expect(rebuilt).toMatchObject({
      channel: { id: "C1" },
      container: {
        type: "message",
        channel_id: "C1",
        message_ts: "2.000",
        thread_ts: "1.000",
        is_ephemeral: false,
      },
      message: { ts: "2.000", thread_ts: "1.000" },
      actions: [action],
      response_url: URL,
    });
  });

  it("a click on an ephemeral digest carries no message (Slack sends none), and says it is ephemeral", () => {
    const body = {
      type: "block_actions",
      team: { id: "T1" },
      user: { id: "U1" },
      channel: { id: "C1" },
      container: { type: "message", message_ts: "3.000", channel_id: "C1", is_ephemeral: true },
      response_url: URL,
      actions: [{ action_id: "digest_why" }],
    };
    const rebuilt = bodyOf(requestOf({ kind: "action", id: "digest_why" }, body, 5, {}), "/insights");
    expect(rebuilt.message).toBeUndefined();
    expect(rebuilt.container).toMatchObject({ is_ephemeral: true, message_ts: "3.000" });
  });

  it("a click on the Home tab: the view's id and type, no response_url; org-wide installs name the enterprise", () => {
    const body = {
      type: "block_actions",
      team: null,
      enterprise: { id: "E1" },
      is_enterprise_install: true,
      user: { id: "U1", team_id: "T9" },
      container: { type: "view", view_id: "V1" },
      view: { id: "V1", type: "home", callback_id: "", blocks: [{ type: "section" }], private_metadata: "m" },
      actions: [{ action_id: "digest_why" }],
    };
    const job = requestOf({ kind: "action", id: "digest_why" }, body, 5, {});
    expect(job.team).toEqual({ teamId: "T9", enterpriseId: "E1", isEnterpriseInstall: true });
    expect(job.surface).toEqual({ container: "view", viewId: "V1", viewType: "home" });
    expect(job.responseUrl).toBeUndefined();
    expect(bodyOf(job, "/insights")).toMatchObject({
      view: { id: "V1", type: "home" },
      container: { type: "view" },
    });
  });

  it("an event carries its inner event, a workflow step its run's id and inputs", () => {
    const event = {
      type: "link_shared",
      channel: "C1",
      message_ts: "1.0",
      links: [{ url: "https://x" }],
      user: "U1",
    };
    const unfurl = requestOf(
      { kind: "event", id: "link_shared" },
      { event, token: "t" },
      5,
      {},
      { teamId: "T1" },
    );
    expect(unfurl).toMatchObject({ event, userId: "U1", team: { teamId: "T1" } });
    const step = requestOf(
      { kind: "function", id: "send_insights_digest" },
      {
        event: {
          type: "function_executed",
          function_execution_id: "Fx1",
          inputs: { channel_id: "C1" },
          bot_access_token: "xwfp-secret",
        },
      },
      5,
      {},
      { teamId: "T1" },
    );
    expect(step.step).toEqual({ executionId: "Fx1", inputs: { channel_id: "C1" } });
    expect(JSON.stringify(step)).not.toContain("xwfp");
  });

  it("a person's message: what the frame read of it (text cut to 2,000 characters), its own id; no blocks or files", () => {
    const text = `how are we doing ${"x".repeat(3_000)}`;
    const body = {
      type: "event_callback",
      team_id: "T1",
      event: {
        type: "message",
        user: "U1",
        text,
        channel: "D1",
        channel_type: "im",
        ts: "5.000",
        blocks: [{ type: "rich_text" }],
        files: [{ id: "F1" }],
      },
    };
    const said = { channelId: "D1", ts: "5.000", threadTs: "5.000", text, botUserId: "UBOT", dm: true };
    const job = requestOf(
      { kind: "message", id: "message" },
      body,
      3,
      {},
      { teamId: "T1" },
      {
        id: "m123",
        message: said,
      },
    );
    expect(job).toMatchObject({ id: "m123", userId: "U1", route: { kind: "message", id: "message" } });
    expect(job.message).toEqual({ ...said, text: text.slice(0, 2_000) });
    expect(JSON.stringify(job)).not.toContain("rich_text");
    expect(JSON.stringify(job)).not.toContain("F1");
    // The executor routes the rebuilt body to the same message entry.
    expect(bodyOf(job, "/insights")).toMatchObject({
      type: "event_callback",
      team_id: "T1",
      event: {
        type: "message",
        user: "U1",
        channel: "D1",
        channel_type: "im",
        ts: "5.000",
        thread_ts: "5.000",
      },
    });
  });

  it("a modal submission's work: the values filled in and the view's metadata; not its blocks", () => {
    const values = { period: { period: { type: "plain_text_input", value: "last month" } } };
    const body = {
      type: "view_submission",
      team: { id: "T1" },
      user: { id: "U1", team_id: "T1" },
      view: {
        id: "V1",
        type: "modal",
        callback_id: "ask_adjust_modal",
        private_metadata: '{"c":"D1","t":"5.000"}',
        state: { values },
        blocks: [{ type: "input", block_id: "period" }],
      },
    };
    const job = requestOf({ kind: "view", id: "ask_adjust_modal" }, body, 3, {});
    expect(job.submission).toEqual({ values, privateMetadata: '{"c":"D1","t":"5.000"}' });
    expect(JSON.stringify(job)).not.toContain('"blocks"');
    expect(bodyOf(job, "/insights")).toMatchObject({
      type: "view_submission",
      user: { id: "U1" },
      view: {
        id: "V1",
        callback_id: "ask_adjust_modal",
        state: { values },
        private_metadata: '{"c":"D1","t":"5.000"}',
      },
    });
  });

  it("a stream entry is read back as the job, and anything else is refused with why", () => {
    const job = requestOf(
      { kind: "command", name: "digest" },
      { command: "/insights", text: "", team_id: "T1", user_id: "U1" },
      5,
      {},
    );
    expect(parseEntry(["j", JSON.stringify(job)])).toEqual(job);
    expect(parseEntry(["x", "1"])).toBe("no job field");
    expect(parseEntry(["j", "{"])).toBe("not JSON");
    expect(parseEntry(["j", JSON.stringify({ ...job, v: 2 })])).toBe("unknown format 2");
  });

  it("a request the previous version queued (a slimmed payload) becomes a request of this one", () => {
    const legacy = legacyClick("rabc", URL, { receivedAt: 7, busy: true, log: { requestId: "x" } });
    expect(fromLegacyJob(legacy)).toMatchObject({
      id: "rabc",
      route: { kind: "action", id: "digest_range_last30d" },
      team: { teamId: "T1" },
      responseUrl: URL,
      notice: "response_url",
      receivedAt: 7,
    });
    expect(fromLegacyJob({ id: "x" })).toBeUndefined();
    // A question the previous version queued keeps its id (a redelivery finds the same claim).
    const question = fromLegacyJob({
      id: "mq1",
      route: { kind: "message", id: "app_mention" },
      body: {
        type: "event_callback",
        authorizations: [{ user_id: "UBOT" }],
        event: { type: "app_mention", user: "U1", text: "<@UBOT> findings", channel: "C1", ts: "9.000" },
      },
      team: { teamId: "T1" },
      userId: "U1",
      receivedAt: 7,
      log: {},
    });
    expect(question).toMatchObject({
      id: "mq1",
      userId: "U1",
      message: {
        channelId: "C1",
        ts: "9.000",
        threadTs: "9.000",
        text: "<@UBOT> findings",
        botUserId: "UBOT",
        dm: false,
      },
    });
  });
});
