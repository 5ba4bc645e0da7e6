import { checkMessage } from "../../src/blockkit/limits.ts";

/**
 * Whether a reply to a slash command helps the user. Unhelpful: no reply; a reply Slack would reject
 * (Block Kit limits); the "something went wrong on our side" fallback (an error nobody foresaw); or
 * the catch-all title with nothing after it. Everything else (a digest, help, status, a warning that
 * names the problem) counts as helpful.
 *
 * @returns null when helpful, else a short reason.
 */
export function judgeReply(body: unknown): string | null {
  if (body === undefined) return "no reply";
  const problems = checkMessage(body);
  if (problems.length > 0) return `Slack would reject it: ${problems[0]}`;
  const all = JSON.stringify(body);
  if (/Something went wrong on our side/.test(all)) return "internal error reply";
  const text = (body as { text?: unknown }).text;
  if (typeof text === "string" && text.trim() === "That did not work.")
    return "catch-all error without an explanation";
  return null;
}
