import { redactText } from "../log.ts";

const MAX_TEXT = 300;

/**
 * Makes untrusted or secret-adjacent text safe for error messages and logs: removes every known
 * secret verbatim (servers sometimes echo the key back), token shapes, control characters, and
 * caps the length so a hostile reply cannot flood logs or Slack.
 */
export function sanitizeText(text: string, secrets: readonly string[] = [], max = MAX_TEXT): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join("[redacted]");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  out = redactText(out).replace(/[\u0000-\u001f\u007f]+/g, " ");
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

/** An endpoint as it may be shown: no user-info, query or fragment (they can hold credentials). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
