import { DEMO } from "../../sandbox/slack/index.ts";

/** A user of the demo workspace (a member unless told), in #general: who sends a command. */
export const inGeneral = (userId: string = DEMO.member) => ({
  teamId: DEMO.teamId,
  userId,
  channelId: DEMO.general,
});

/** The connect modal the stand-in tests open: one plain-text input for the API key (block `key`). */
export const connectModal = (privateMetadata: string) => ({
  type: "modal" as const,
  callback_id: "connect",
  private_metadata: privateMetadata,
  title: { type: "plain_text" as const, text: "Connect" },
  submit: { type: "plain_text" as const, text: "Save" },
  blocks: [
    {
      type: "input",
      block_id: "key",
      label: { type: "plain_text", text: "API key" },
      element: { type: "plain_text_input", action_id: "value" },
    },
  ],
});

/** A WebClient logger that says nothing: the tests read Slack's answers, not the client's warnings. */
export const quiet = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => "error" as never,
  setName() {},
};
