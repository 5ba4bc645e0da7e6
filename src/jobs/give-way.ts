/**
 * Deliveries give way to the requests people wait on, when both share one event loop (a worker
 * process reads the web's hand-off stream beside its BullMQ worker).
 *
 * A slot keeps the worker's loop full: fifty deliveries in flight queue callbacks as fast as the loop
 * runs them, and on a shared host the worker's lowered priority leaves it a fraction of a core. A
 * request's dozen steps (its claim, its cached reply, the analytics call, the answer) each then wait
 * behind a turn's worth of the deliveries' callbacks: measured at 3,000 subscriptions, each step
 * waited 100–300 ms, a request took 1.7 s instead of 50 ms, and the consumer's twenty slots ran ten a
 * second against fifty arriving, so the hand-off stream's backlog grew for the whole slot.
 *
 * So while a request runs here and the loop is late (a timer fires `lateMs` past its time), a
 * delivery about to start waits at `pass()`; deliveries already running go on, and the loop empties
 * of their callbacks within one delivery's time. Waiters are let through one a tick once the loop
 * is on time again (or no request runs), so a slot's deliveries come back as fast as the loop keeps
 * up; while it stays late, one still starts every `floorMs` (a request stuck on a slow service, or a
 * host too busy to give the worker its share, must not stop the slot). Nothing is dropped or
 * reordered: a delivery only starts later.
 */

/** Options of createGiveWay. Defaults in brackets. */
export interface GiveWayOptions {
  /** A loop whose timer fires this late is congested [50 ms]. */
  lateMs?: number;
  /** How often the loop is sampled while a request runs, and waiters let through when it is on time [25 ms]. */
  tickMs?: number;
  /** Waiters let through a tick while the loop is on time [1]. */
  perTick?: number;
  /** While the loop stays congested, one delivery still starts this often, so a slot never stops [100 ms]. */
  floorMs?: number;
  /** The clock [performance.now]. */
  now?: () => number;
  /** A delivery begins to wait, `waiting` with it. */
  onWait?(waiting: number): void;
}

export interface GiveWay {
  /** A request people wait on starts here; call the returned function when it ends. */
  request(): () => void;
  /** Resolves when a delivery may start: at once unless a request runs on a late loop. */
  pass(): Promise<void>;
  /** Deliveries waiting now (for logs and tests). */
  waiting(): number;
  /** Stops the sampling timer and lets every waiter through. */
  close(): void;
}

/**
 * @example
 * const way = createGiveWay();
 * const done = way.request(); try { await answer(job) } finally { done() }
 * await way.pass(); await deliver(job);
 */
export function createGiveWay(o: GiveWayOptions = {}): GiveWay {
  const lateMs = o.lateMs ?? 50;
  const tickMs = o.tickMs ?? 25;
  const floorMs = o.floorMs ?? 100;
  const perTick = Math.max(1, o.perTick ?? 1);
  const now = o.now ?? (() => performance.now());
  let running = 0;
  let late = 0;
  let closed = false;
  let lastStart = now();
  let timer: NodeJS.Timeout | undefined;
  const waiters: (() => void)[] = [];

  const congested = () => running > 0 && late >= lateMs;

  /**
   * While the loop is on time, the first `perTick` waiters start; while it is late, one when the
   * floor's time has come. Few at once, so those let through do not fill the loop again in one go:
   * at 3,000 subscriptions four a tick (or a smoothed lateness) brought the replies' p99 back to
   * 3.7 s and more, one a tick held it at 1.4 s. A bound on each one's wait instead let a congested
   * worker's deliveries through at their full rate, only later.
   */
  const release = () => {
    const t = now();
    const n = !congested() ? perTick : t - lastStart >= floorMs ? 1 : 0;
    for (const go of waiters.splice(0, n)) {
      lastStart = t;
      go();
    }
  };

  // One timer while a request runs or a delivery waits: its lateness is the loop's.
  const tick = (expected: number) => {
    timer = setTimeout(() => {
      late = Math.max(0, now() - expected);
      release();
      if (!closed && (running > 0 || waiters.length > 0)) tick(now() + tickMs);
      else timer = undefined;
    }, tickMs);
    timer.unref();
  };
  const sample = () => {
    if (!timer && !closed) tick(now() + tickMs);
  };

  return {
    request() {
      running++;
      sample();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        running--;
      };
    },
    pass() {
      if (closed || (!congested() && waiters.length === 0)) {
        lastStart = now();
        return Promise.resolve();
      }
      return new Promise<void>((go) => {
        waiters.push(go);
        o.onWait?.(waiters.length);
        sample();
      });
    },
    waiting: () => waiters.length,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const go of waiters.splice(0)) go();
    },
  };
}
