import { describe, expect, it } from "vitest";
import { slimBody } from "../../src/slack/frame/offload.ts";

describe("what a handed-off job carries", () => {
  it("a slash command: every field but Slack's verification token", () => {
    const body = {
      token: "verification-token",
      command: "/insights",
      text: "last7d",
      response_url: "https://hooks.slack.com/commands/T1/1/x",
      user_id: "U1",
      team_id: "T1",
      channel_id: "C1",
    };
    const { token: _t, ...rest } = body;
    expect(slimBody(body)).toEqual(rest);
  });

  it("a block action: ids, the clicked action and the response_url; not the message, the state or the token", () => {
    const action = { type: "button", action_id: "digest_range_last30d", block_id: "b", value: "{}" };
    const body = {
      type: "block_actions",
      token: "verification-token",
      team: { id: "T1" },
      user: { id: "U1" },
      channel: { id: "C1" },
      container: { type: "message", is_ephemeral: true },
      response_url: "https://hooks.slack.com/actions/T1/1/x",
      actions: [action, { action_id: "other" }],
      message: { blocks: new Array(40).fill({ type: "section" }) },
      state: { values: { a: { b: { value: "typed" } } } },
      view: { id: "V1", type: "home", callback_id: "", blocks: [{ type: "section" }], private_metadata: "m" },
    };
    const { token: _t, message: _m, state: _s, ...kept } = body;
    expect(slimBody(body)).toEqual({
      ...kept,
      actions: [action],
      view: { id: "V1", type: "home", callback_id: "" },
    });
  });
});
