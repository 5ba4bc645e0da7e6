import type { CommandEntry, CommandParser, ListenerEntry } from "./types.ts";

/** Everything the app answers: the slash command's subcommands and every other listener. */
export interface Routes {
  command: {
    /** The slash command, e.g. `/insights`. */
    name: string;
    parse: CommandParser<unknown>;
    // biome-ignore lint/suspicious/noExplicitAny: each entry narrows the parsed command to its own variant
    entries: CommandEntry<any>[];
  };
  listeners: ListenerEntry[];
}

/** Where a request goes: its entry, or nowhere (then it is answered as out of date). */
export type Route =
  | { kind: "command"; name: string }
  | {
      kind: "action" | "view" | "options" | "event" | "function" | "message";
      entry: ListenerEntry;
      id: string;
    }
  | { kind: "unrouted"; type: string; id: string };

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** The routing table: one matcher for every kind, checked for clashes when it is built. */
export function routeTable(routes: Routes) {
  const byKind = new Map<ListenerEntry["kind"], ListenerEntry[]>();
  for (const e of routes.listeners) {
    // A person's messages and other events share the inner event type's namespace.
    const kinds = e.kind === "message" || e.kind === "event" ? ["message", "event"] : [e.kind];
    for (const k of kinds)
      for (const o of byKind.get(k as ListenerEntry["kind"]) ?? [])
        if (o.kind !== e.kind && o.id === e.id) throw new Error(`two event entries answer "${String(e.id)}"`);
    const same = byKind.get(e.kind) ?? [];
    // Two entries answering one id would both run and both ack: refuse such a table outright.
    for (const o of same) {
      const clash =
        typeof e.id === "string" && typeof o.id === "string"
          ? e.id === o.id
          : typeof e.id === "string"
            ? (o.id as RegExp).test(e.id)
            : typeof o.id === "string" && e.id.test(o.id);
      if (clash) throw new Error(`two ${e.kind} entries answer "${String(e.id)}"`);
    }
    byKind.set(e.kind, [...same, e]);
  }
  const commands = new Map<string, CommandEntry<unknown>>();
  for (const c of routes.command.entries) {
    if (commands.has(c.name)) throw new Error(`two command entries named "${c.name}"`);
    commands.set(c.name, c);
  }

  const find = (kind: ListenerEntry["kind"], id: string): ListenerEntry | undefined => {
    return (byKind.get(kind) ?? []).find((e) => (typeof e.id === "string" ? e.id === id : e.id.test(id)));
  };

  function route(body: Record<string, unknown>): Route {
    if (typeof body.command === "string") {
      return body.command === routes.command.name
        ? { kind: "command", name: body.command }
        : { kind: "unrouted", type: "command", id: body.command };
    }
    const type = str(body.type);
    const first = (Array.isArray(body.actions) ? body.actions[0] : undefined) as
      | { action_id?: unknown }
      | undefined;
    const view = (body.view ?? {}) as { callback_id?: unknown };
    const event = (body.event ?? undefined) as { type?: unknown } | undefined;
    const pick = (kind: ListenerEntry["kind"], id: string, unroutedType = type): Route => {
      const entry = find(kind, id);
      return entry ? { kind, entry, id } : { kind: "unrouted", type: unroutedType, id };
    };
    if (type === "block_actions") return pick("action", str(first?.action_id));
    if (type === "block_suggestion") return pick("options", str(body.action_id));
    if (type === "view_submission") return pick("view", str(view.callback_id));
    // A custom step's run is routed by the step's callback_id, not by the event type.
    if (event && event.type === "function_executed") {
      const fn = (event as { function?: { callback_id?: unknown } }).function?.callback_id;
      return pick("function", str(fn), "event:function_executed");
    }
    if (event && typeof event === "object") {
      if (find("message", str(event.type))) return pick("message", str(event.type));
      return pick("event", str(event.type), `event:${str(event.type)}`);
    }
    return { kind: "unrouted", type: type || "unknown", id: str(view.callback_id) || str(body.callback_id) };
  }

  return { route, commands, parse: routes.command.parse, commandName: routes.command.name };
}

export type RouteTable = ReturnType<typeof routeTable>;
