import { AppError } from "../../src/errors.ts";
import type { StandInState } from "./state.ts";

export interface WaitOptions {
  /** Default 5,000 ms. */
  timeoutMs?: number;
  /** Default 20 ms. */
  intervalMs?: number;
  /** Named in the timeout error, e.g. "the digest in #general". */
  what?: string;
}

/** A compact picture of what the stand-in saw, for failure messages. */
export function dumpState(state: StandInState, lastCalls = 25): string {
  const calls = state.calls
    .slice(-lastCalls)
    .map(
      (c) => `  ${c.method} team=${c.teamId ?? "-"} ${c.ok ? "ok" : `error=${c.error} status=${c.status}`}`,
    );
  const channels = [...state.messages].map(([id, list]) => `  ${id}: ${list.length} message(s)`);
  const eph = state.ephemerals.filter((e) => !e.deleted).length;
  const views = [...state.views.values()].map(
    (v) => `  ${v.id} ${v.type} user=${v.userId ?? "-"}${v.closed ? " closed" : ""}`,
  );
  return [
    `calls (last ${Math.min(lastCalls, state.calls.length)} of ${state.calls.length}):`,
    ...(calls.length ? calls : ["  (none)"]),
    "channel messages:",
    ...(channels.length ? channels : ["  (none)"]),
    `ephemeral messages: ${eph}`,
    `response_url posts: ${state.responses.length}`,
    "views:",
    ...(views.length ? views : ["  (none)"]),
  ].join("\n");
}

/**
 * Polls until `predicate` returns a truthy value and resolves with it. On timeout, rejects with an
 * AppError `wait_timeout` whose message holds the recorded calls and messages, so a failing test
 * shows what the app did instead.
 */
export async function waitFor<T>(
  state: StandInState,
  predicate: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= until) break;
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 20));
  }
  const why = lastError ? `\nlast predicate error: ${String(lastError)}` : "";
  throw new AppError(
    "wait_timeout",
    `waited ${timeoutMs} ms for ${options.what ?? "a condition"} on the Slack stand-in${why}\n${dumpState(state)}`,
  );
}
