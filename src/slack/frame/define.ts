import type {
  ActionEntry,
  CommandEntry,
  EventEntry,
  FunctionEntry,
  MessageEntry,
  OptionsEntry,
  ViewEntry,
} from "./types.ts";

/** Why an entry that opens a modal runs where the request is acked: a hand-off could wait past trigger_id's life. */
export const OPENS_MODAL = "opens a modal (trigger_id lives 3 s)";

/** Typed constructors for the registration tables: each entry says what it answers and who may use it. */
export const onCommand = <C>(e: Omit<CommandEntry<C>, "kind">): CommandEntry<C> => ({
  kind: "command",
  ...e,
});
export const onAction = (e: Omit<ActionEntry, "kind">): ActionEntry => ({ kind: "action", ...e });
export const onView = (e: Omit<ViewEntry, "kind">): ViewEntry => ({ kind: "view", ...e });
export const onOptions = (e: Omit<OptionsEntry, "kind">): OptionsEntry => ({ kind: "options", ...e });
export const onEvent = (e: Omit<EventEntry, "kind">): EventEntry => ({ kind: "event", ...e });
export const onFunction = (e: Omit<FunctionEntry, "kind">): FunctionEntry => ({ kind: "function", ...e });
export const onMessage = (e: Omit<MessageEntry, "kind">): MessageEntry => ({ kind: "message", ...e });
