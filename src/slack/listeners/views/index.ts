import type { ViewEntry } from "../../frame/index.ts";
import { askAdjustSubmit } from "./ask-adjust-submit.ts";
import { connectSubmit } from "./connect-submit.ts";
import { subscribeSubmit } from "./subscribe-submit.ts";

/** Modal submissions, one entry per modal. */
export const VIEWS: ViewEntry[] = [connectSubmit, subscribeSubmit, askAdjustSubmit];
