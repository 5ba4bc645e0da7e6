import type { App } from "@slack/bolt";
import { CALLBACK } from "../../../ids.ts";
import type { AppServices } from "../../services.ts";
import { connectSubmit } from "./connect-submit.ts";
import { subscribeSubmit } from "./subscribe-submit.ts";

/** View submissions, one handler per modal. */
export function registerViews(app: App, deps: AppServices): void {
  app.view(CALLBACK.connectModal, connectSubmit(deps));
  app.view(CALLBACK.subscribeModal, subscribeSubmit(deps));
}
