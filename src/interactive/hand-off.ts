import { HANDOFF } from "./stream.ts";
import type { InteractiveExecutor, InteractiveJob } from "./types.ts";

// Never what keeps a stopping process alive: a request still being handed off then is lost with it.
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)).unref());

/** A write the executor says may be tried again (the stream's, when Redis did not take it). */
const retriable = (err: unknown) => (err as { retriable?: unknown } | null)?.retriable === true;

/**
 * Hands a request to the executor within the hand-off's deadline (stream.ts, HANDOFF): a write that
 * fails in a way that may pass (`retriable`: Redis did not take it, or did not say) is written again
 * until `handOffBy`, one at a time, and any other failure is thrown at once; a reply to any of them that comes before
 * the person would be told counts. When none got through it throws the last error, and only once any
 * of those writes that lands after all is one a worker skips: the caller may then tell the person the
 * hand-off failed. Stamps `job.handOffBy` (wall-clock time: workers compare it with the Redis server's
 * clock, not the calendar the app's clock may be set to).
 */
export async function handOff(
  executor: Pick<InteractiveExecutor, "submit">,
  job: InteractiveJob,
  now: () => number = Date.now,
): Promise<void> {
  const by = now() + HANDOFF.windowMs;
  const tellAt = by + HANDOFF.graceMs + 2 * HANDOFF.skewMs;
  job.handOffBy = by;
  let landed = false;
  // A failure that no second write would change (a closed executor): told at once.
  let final = false;
  let last: unknown = new Error("the hand-off got no reply in time");
  let wake: () => void = () => undefined;
  const attempt = () =>
    executor.submit(job).then(
      () => {
        landed = true;
        wake();
      },
      (err: unknown) => {
        last = err;
        if (!retriable(err)) final = true;
      },
    );
  for (let n = 0; !landed && now() < by; n++) {
    // The next write starts once this one has failed, or at the latest when the person would be told.
    await Promise.race([attempt(), sleep(tellAt - now())]);
    if (final) throw last;
    if (!landed && now() < by) await sleep(Math.min(250 * 2 ** n, 2_000, by - now()));
  }
  if (!landed)
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, Math.max(0, tellAt - now())).unref();
    });
  if (!landed) throw last;
}

/**
 * `fn`, tried again every half second while it fails, for up to `ms`; `fallback` if it never
 * succeeds. For the one write that decides whether a person is told a hand-off failed: Redis refusing
 * writes for a few seconds more (a new primary without its replica yet) must not decide it.
 */
export async function retryFor<T>(fn: () => Promise<T>, ms: number, fallback: T): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch {
      if (Date.now() >= until) return fallback;
      await sleep(500);
    }
  }
}
