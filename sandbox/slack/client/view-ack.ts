import { isRecord } from "../api/args.ts";
import { randomHex } from "../ids.ts";
import type { StandInState } from "../state.ts";

/**
 * What Slack does with the app's answer to a view_submission: an empty ack closes the view,
 * `errors` keeps it open, `update` replaces it, `push` stacks a new one, `clear` closes the stack.
 */
export function applyViewAck(state: StandInState, viewId: string, status: number, body: unknown): void {
  const view = state.views.get(viewId);
  if (!view || status !== 200) return;
  const action = isRecord(body) ? body.response_action : undefined;
  if (action === undefined) {
    view.closed = true;
    return;
  }
  if (action === "clear") {
    for (const v of state.views.values()) if (v.rootViewId === view.rootViewId) v.closed = true;
    return;
  }
  if (!isRecord(body) || !isRecord(body.view)) return;
  if (action === "update") {
    view.view = body.view;
    view.hash = randomHex(8);
  } else if (action === "push") {
    const id = state.ids.viewId();
    state.views.set(id, {
      ...view,
      id,
      hash: randomHex(8),
      previousViewId: view.id,
      externalId: undefined,
      closed: false,
      view: body.view,
    });
  }
}
