/**
 * The Web API methods that read a JSON body (`Content-Type: application/json`): the write methods the
 * stand-in speaks. Slack takes JSON on most write methods and documents it per method; the read
 * methods (`auth.test`, `users.info`, `conversations.info|history|replies`, `files.info`,
 * `chat.getPermalink`), the OAuth exchange and some writes (the `files.getUploadURLExternal`
 * reservation, refused live with `invalid_arguments`) read only form or query arguments. The stand-in's own list, kept apart from the app's so each checks the other:
 * a JSON body to any other method is refused here, which is stricter than a method that would
 * merely not see its arguments.
 */
export const JSON_BODY_METHODS: ReadonlySet<string> = new Set([
  "chat.postMessage",
  "chat.postEphemeral",
  "chat.update",
  "chat.delete",
  "chat.unfurl",
  "chat.scheduleMessage",
  "views.open",
  "views.push",
  "views.update",
  "views.publish",
  "conversations.open",
  "files.completeUploadExternal",
  "apps.connections.open",
  "functions.completeSuccess",
  "functions.completeError",
  "assistant.threads.setStatus",
  "assistant.threads.setSuggestedPrompts",
  "assistant.threads.setTitle",
]);
