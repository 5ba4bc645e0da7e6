/**
 * Slack stand-in: a local HTTP server speaking Slack's Web API, response_url and
 * upload protocols, plus a client that delivers signed commands, interactions and events to the app.
 * See README.md beside this file.
 */
export { API_METHODS } from "./api/dispatch.ts";
export { TRIGGER_TTL_MS } from "./api/views.ts";
export { chooseOption, clickButton, findElement, pressFeedback } from "./client/actions.ts";
export {
  DOCUMENTED_SHAPES,
  EVENT_SHAPES,
  INTERACTION_SHAPES,
  OUTER_SHAPES,
  type Shape,
} from "./client/documented.ts";
export { slackEvents } from "./client/events.ts";
export type { DeliveryOptions, SendResult } from "./client/http.ts";
export { REPLAY_AGE_SEC, type SignMode, slackSignature } from "./client/sign.ts";
export type { Transport } from "./client/transport.ts";
export type { ChannelChange } from "./control.ts";
export type { StepRun } from "./functions/execute.ts";
export { checkParameters } from "./functions/schema.ts";
export type { FunctionExecution } from "./functions/types.ts";
export { type AppManifest, loadManifest, readManifest, type StepDefinition } from "./manifest/manifest.ts";
export type { CallFilter } from "./queries.ts";
export { DEMO_APP_TOKEN, type ReachControls } from "./reach.ts";
export { RESPONSE_URL_TTL_MS, RESPONSE_URL_USES } from "./response-url.ts";
export { DEMO, defaultWorkspace } from "./seed.ts";
export { MAX_CONNECTIONS, SOCKET_PATH } from "./socket/server.ts";
export type * from "./socket/types.ts";
export { type SlackStandIn, type SlackStandInOptions, startSlackStandIn } from "./standin.ts";
export type * from "./types.ts";
export { linksIn } from "./unfurl/share.ts";
export type { LinkShare } from "./unfurl/types.ts";
export type { WaitOptions } from "./wait.ts";
