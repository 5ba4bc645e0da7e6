import { LIMITS } from "../src/blockkit/limits.ts";
import { mrkdwn, plain, userText } from "../src/blockkit/text.ts";
import type { Block, ModalView } from "../src/blockkit/types.ts";
import { AppError } from "../src/errors.ts";
import { ACTION, BLOCK, CALLBACK } from "../src/ids.ts";
import { shown } from "./error-message.ts";

export interface ConnectModalOptions {
  /** Why the last key was refused, shown above the input (e.g. "The service did not accept this key."). */
  error?: string;
  /** The GraphQL endpoint the key will be checked against; shown so the admin knows which account it is. */
  endpoint?: string;
  /** Round-trips to the submission handler (e.g. where the command was typed). */
  privateMetadata?: string;
}

/**
 * The modal that takes the platform API key. The input is never pre-filled, not even after a
 * failed attempt: a key leaves Slack once, in the submission, and never comes back into a view.
 * The submission handler reads `view.state.values[BLOCK.apiKey][ACTION.apiKeyInput].value`.
 *
 * @throws AppError `bad_state` when `privateMetadata` is over Slack's 3,000 characters (cutting it would corrupt it).
 */
export function connectModal(opts: ConnectModalOptions = {}): ModalView {
  if (opts.privateMetadata !== undefined && opts.privateMetadata.length > LIMITS.privateMetadata)
    throw new AppError("bad_state", "The connect form's metadata is too long to carry.");
  const blocks: Block[] = [];
  if (opts.error?.trim()) blocks.push({ type: "section", text: mrkdwn(`:x: *${shown(opts.error, 500)}*`) });
  blocks.push({
    type: "section",
    text: mrkdwn(
      "Paste an API key from the platform (*Application keys*, key type *API key*). It is checked with the analytics service before it is saved, stored encrypted, and never shown again or posted anywhere.",
    ),
  });
  blocks.push({
    type: "input",
    block_id: BLOCK.apiKey,
    label: plain("API key", LIMITS.inputLabel),
    element: {
      type: "plain_text_input",
      action_id: ACTION.apiKeyInput,
      placeholder: plain("Paste the key here", LIMITS.placeholder),
      min_length: 1,
      max_length: 500,
    },
    hint: plain("Only workspace admins can connect or replace the key.", LIMITS.inputHint),
  });
  const endpoint = opts.endpoint?.trim()
    ? `Checked against \`${userText(opts.endpoint.replace(/`/g, ""), 300)}\``
    : "Checked against the configured analytics endpoint.";
  blocks.push({ type: "context", elements: [mrkdwn(endpoint)] });
  const view: ModalView = {
    type: "modal",
    callback_id: CALLBACK.connectModal,
    title: plain("Connect Insights", LIMITS.modalTitle),
    submit: plain("Check and save", LIMITS.modalButton),
    close: plain("Cancel", LIMITS.modalButton),
    blocks,
  };
  if (opts.privateMetadata !== undefined) view.private_metadata = opts.privateMetadata;
  return view;
}
