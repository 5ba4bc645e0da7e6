/** Pure Block Kit builders: view model in, `{ blocks, text }` or a view out. No I/O, no clock. */
export { type ConnectModalOptions, connectModal } from "./connect-modal.ts";
export { digestMessage, digestSummary } from "./digest-message.ts";
export { type ErrorView, errorMessage } from "./error-message.ts";
export { ALL_VALUE, type FilterKind, filterMenu, optionsForQuery } from "./filter-menu.ts";
export { type HelpOptions, helpMessage } from "./help.ts";
export { type DigestState, decodeState, encodeState, encodeStateWithin } from "./state.ts";
export { type SubscriptionListOptions, type SubscriptionView, subscriptionList } from "./subscriptions.ts";
