/**
 * Alert subscriptions check a condition on a short schedule and post twice per episode: once when
 * it becomes true and once when it clears, never on every check. Pure: the state (kept per
 * subscription in Redis) and the verdict in, the next state and what to post out.
 */
export type AlertState = "firing" | "clear";

export interface AlertStep {
  state: AlertState;
  /** What to post for this check: the alert, its all-clear, or nothing. */
  post: "fire" | "clear" | null;
}

/**
 * @example alertStep(undefined, true)  // { state: "firing", post: "fire" }
 * @example alertStep("firing", true)   // { state: "firing", post: null }
 * @example alertStep("firing", false)  // { state: "clear", post: "clear" }
 */
export function alertStep(previous: AlertState | undefined, met: boolean): AlertStep {
  if (met) return { state: "firing", post: previous === "firing" ? null : "fire" };
  // A first check that is already clear has nothing to clear: no post.
  return { state: "clear", post: previous === "firing" ? "clear" : null };
}
