import type { WebClient } from "@slack/web-api";

/** Web API calls that put something on screen, and of those the ones a repeat cannot duplicate. */
const OUTWARD = new Set(["chat", "views", "files"]);
// Getting an upload URL or reading a file shows nothing: only completing an upload shares the file.
const REPEATABLE = new Set([
  "chat.update",
  "chat.delete",
  // A message's link shows nothing.
  "chat.getPermalink",
  "views.publish",
  "views.update",
  "files.getUploadURLExternal",
  "files.info",
]);

/**
 * A client whose calls that put something on screen first ask `outward` (which records that an
 * answer is going out, and may refuse a repeat after a takeover). Reads pass straight through.
 */
export function guardClient(
  client: WebClient,
  outward: (method: string, repeatable: boolean) => Promise<boolean>,
): WebClient {
  const wrapped = new Map<string, unknown>();
  for (const ns of OUTWARD) {
    const target = (client as unknown as Record<string, object>)[ns] as Record<string, unknown>;
    wrapped.set(
      ns,
      new Proxy(target, {
        get(t, prop) {
          const f = Reflect.get(t, prop);
          if (typeof f !== "function") return f;
          const method = `${ns}.${String(prop)}`;
          return async (...args: unknown[]) =>
            (await outward(method, REPEATABLE.has(method))) ? f.apply(t, args) : { ok: true, skipped: true };
        },
      }),
    );
  }
  return new Proxy(client, {
    get: (t, prop, receiver) =>
      typeof prop === "string" && wrapped.has(prop) ? wrapped.get(prop) : Reflect.get(t, prop, receiver),
  });
}
