import type { App } from "@slack/bolt";
import type { AppServices } from "../services.ts";
import { guardAck } from "./ack-guard.ts";
import { createDispatcher } from "./dispatch.ts";
import { type Admit, createFastPath } from "./fast-path.ts";
import { type Routes, routeTable } from "./routes.ts";
import { ackUnclassified } from "./unclassified.ts";

export * from "./define.ts";
export type { Admit } from "./fast-path.ts";
export { BUSY_TEXT, fromLegacyJob, requestOf } from "./offload.ts";
export { countOffloaded, type OffloadedEnv, runOffloaded } from "./offloaded.ts";
export { type Routes, type RouteTable, routeTable } from "./routes.ts";
export type * from "./types.ts";
export { handsOff } from "./types.ts";

/**
 * Installs the listener frame: the only way a handler reaches Bolt. One global middleware routes
 * every request to its entry (or answers it as out of date), so no listener is registered with
 * `app.command`/`app.action`/`app.view`/`app.options`/`app.event` anywhere else.
 */
export function installFrame(app: App, deps: AppServices, routes: Routes, admit?: Admit): void {
  const table = routeTable(routes);
  // Requests whose work is handed off are acked and handed over before Bolt's own path (fast-path.ts),
  // when the composition root says how to admit a workspace without Bolt's authorize.
  ackUnclassified(app, deps, admit ? createFastPath(deps, table, admit) : undefined);
  const dispatch = createDispatcher(deps, table);
  app.use(async (args) => dispatch(guardAck(args as Parameters<typeof dispatch>[0], deps.logger)));
}
