import type { App } from "@slack/bolt";
import type { AppServices } from "../services.ts";
import { guardAck } from "./ack-guard.ts";
import { createDispatcher } from "./dispatch.ts";
import { type Routes, routeTable } from "./routes.ts";
import { ackUnclassified } from "./unclassified.ts";

export * from "./define.ts";
export { BUSY_TEXT } from "./offload.ts";
export { countOffloaded, type OffloadedEnv, runOffloaded } from "./offloaded.ts";
export { type Routes, type RouteTable, routeTable } from "./routes.ts";
export type * from "./types.ts";

/**
 * Installs the listener frame: the only way a handler reaches Bolt. One global middleware routes
 * every request to its entry (or answers it as out of date), so no listener is registered with
 * `app.command`/`app.action`/`app.view`/`app.options`/`app.event` anywhere else.
 */
export function installFrame(app: App, deps: AppServices, routes: Routes): void {
  ackUnclassified(app, deps);
  const dispatch = createDispatcher(deps, routeTable(routes));
  app.use(async (args) => dispatch(guardAck(args as Parameters<typeof dispatch>[0], deps.logger)));
}
