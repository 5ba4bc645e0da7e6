import { escapeMrkdwn, mrkdwn, truncateMrkdwn, userText } from "../src/blockkit/text.ts";
import type { Block, Message } from "../src/blockkit/types.ts";
import { COMMAND } from "../src/ids.ts";
import { redactText } from "../src/log.ts";
import { CONDITION_GRAMMAR } from "../src/subscriptions/conditions.ts";

/** What went wrong, as the error's code and whatever the caller may show alongside it. */
export interface ErrorView {
  code: string;
  /** A message written for users (an `AppError`'s); shown escaped and redacted for the codes that explain themselves. */
  message?: string;
  retryAfterMs?: number;
  /** Correlates the reply with the logs; shown so a user can quote it. */
  referenceId?: string;
  /** A command to try instead, e.g. `/insights last7d`. */
  suggestion?: string;
}

interface Wording {
  title: string;
  body: string;
  /** Whether `message` adds something the user needs (a range error lists the accepted forms). */
  showMessage: boolean;
}

const C = COMMAND;

function seconds(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return "in a minute";
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s === 1 ? "in 1 second" : `in ${s.toLocaleString("en-US")} seconds`;
}

function wording(err: ErrorView): Wording {
  switch (err.code) {
    case "unauthorized":
      return {
        title: "The platform did not accept the API key.",
        body: `A workspace admin needs to run \`${C} connect\` with a valid key.`,
        showMessage: false,
      };
    case "rate_limited":
      return {
        title: "The analytics service is busy.",
        body: `Try again ${seconds(err.retryAfterMs)}.`,
        showMessage: false,
      };
    case "unavailable":
      return {
        title: "The analytics service did not answer.",
        body: "Nothing is lost; try again in a moment.",
        showMessage: false,
      };
    case "bad_response":
      return {
        title: "The analytics service replied with something unexpected.",
        body: "It has been reported. Try again later.",
        showMessage: false,
      };
    case "graphql":
      return { title: "The analytics service refused the query.", body: "", showMessage: true };
    case "bad_request":
      return { title: "The analytics service did not accept the request.", body: "", showMessage: true };
    case "bad_range":
      return { title: "That is not a range I know.", body: "", showMessage: true };
    case "bad_condition":
      return {
        title: "That is not a condition I can check.",
        // Our own text, shown as lines: the one-line message above says what was wrong with this one.
        body: `Conditions look like:\n\`\`\`${escapeMrkdwn(CONDITION_GRAMMAR)}\`\`\``,
        showMessage: true,
      };
    case "not_connected":
      return {
        title: "Insights is not connected yet.",
        body: `No API key has been added for this workspace. A workspace admin can run \`${C} connect\`.`,
        showMessage: false,
      };
    case "forbidden":
      return {
        title: "Only workspace admins can do that.",
        body: "Connecting the key and managing subscriptions is for admins, owners and whoever installed the app.",
        showMessage: true,
      };
    case "unknown_command":
      return {
        title: "I don't know that command.",
        body: `\`${C} help\` lists them all.`,
        showMessage: true,
      };
    case "not_in_channel":
      return {
        title: "The app is not in this channel.",
        body: "Invite it with `/invite @Insights`, then try again.",
        showMessage: false,
      };
    case "bad_state":
      return {
        title: "These buttons are out of date.",
        body: `Run \`${C}\` again for a fresh digest.`,
        showMessage: false,
      };
    case "out_of_date":
      return {
        title: "This message is out of date.",
        body: `Run \`${C}\` again for a fresh one.`,
        showMessage: false,
      };
    case "internal":
      return {
        title: "Something went wrong on our side.",
        body: "It has been logged. Try again, and quote the reference below if it keeps happening.",
        showMessage: false,
      };
    default:
      return { title: "That did not work.", body: "", showMessage: true };
  }
}

/** A user's (or a service's) words back to them: no secret, no mention, no link, bounded length. */
export function shown(text: string, max: number): string {
  return userText(redactText(text), max);
}

/**
 * One reply per error code; the text explains what happened and what to do, never how the code
 * failed inside. Nothing secret is shown: `message` goes through redaction as well as escaping.
 */
export function errorMessage(err: ErrorView): Message {
  const w = wording(err);
  const lines = [`:warning: *${w.title}*`];
  // A condition error carries the grammar after its first line; the body shows it as lines instead.
  const said = err.code === "bad_condition" ? err.message?.split("\n")[0] : err.message;
  const message = w.showMessage && said?.trim() ? shown(said, 1500) : "";
  if (message && message !== w.title) lines.push(message);
  if (w.body) lines.push(w.body);
  const suggestion = err.suggestion?.trim() ? shown(err.suggestion.replace(/`/g, ""), 200) : "";
  if (suggestion) lines.push(`Did you mean \`${suggestion}\`?`);
  const blocks: Block[] = [{ type: "section", text: mrkdwn(lines.join("\n")) }];
  const ref = err.referenceId?.trim() ? shown(err.referenceId.replace(/`/g, ""), 80) : "";
  const footer = [ref ? `Reference \`${ref}\`` : null, `\`${C} help\` for commands`].filter(
    (x) => x !== null,
  );
  blocks.push({ type: "context", elements: [mrkdwn(footer.join(" · "))] });
  return { blocks, text: truncateMrkdwn(`${w.title}${message ? ` ${message}` : ""}`, 500) };
}

/**
 * The answer to a click the app no longer routes (a control of an older version, a shortcut it never
 * declared): digests stay in channels for months, and silence would show the person an error.
 */
export function outOfDateMessage(): Message {
  return errorMessage({ code: "out_of_date" });
}
