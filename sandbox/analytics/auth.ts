/** `ApiKey` + exactly one space + a key without whitespace. The scheme is case-sensitive, as the contract says. */
const API_KEY_HEADER = /^ApiKey ([^\s]+)$/;

export type AuthOutcome = { ok: true; apiKey: string } | { ok: false; message: string };

/**
 * Reads the key from an `Authorization` header value. Rejects a missing header, another scheme
 * (Bearer, apikey), two spaces, and an empty key, each with a message safe to send back (no key echoed).
 */
export function parseAuthorization(header: string | undefined): AuthOutcome {
  if (header === undefined || header === "") {
    return { ok: false, message: "Missing Authorization header; send `Authorization: ApiKey <API_KEY>`." };
  }
  const match = API_KEY_HEADER.exec(header);
  if (!match?.[1]) {
    return {
      ok: false,
      message: "Malformed Authorization header; the form is `ApiKey <API_KEY>` with exactly one space.",
    };
  }
  return { ok: true, apiKey: match[1] };
}
