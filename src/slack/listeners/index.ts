import type { ListenerEntry } from "../frame/index.ts";
import { ACTIONS } from "./actions/index.ts";
import { EVENTS } from "./events/index.ts";
import { FUNCTIONS } from "./functions/index.ts";
import { MESSAGES } from "./messages/ask.ts";
import { OPTIONS } from "./options/index.ts";
import { VIEWS } from "./views/index.ts";

export { lifecycleEvents } from "./events/lifecycle.ts";

/** Every listener but the slash command's subcommands (commands/) and the lifecycle events. */
export const LISTENERS: ListenerEntry[] = [
  ...ACTIONS,
  ...VIEWS,
  ...OPTIONS,
  ...EVENTS,
  ...FUNCTIONS,
  ...MESSAGES,
];
