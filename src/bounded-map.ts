/**
 * Stores `value` under `key` as the most recent entry of `map` (a Map keeps insertion order) and lets
 * the least recently stored go until at most `max` remain: the bound every in-process memo here keeps,
 * so a stream of distinct keys cannot grow it.
 */
export function keepRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}

/**
 * Values held until their own deadline, bounded by the sum of their weights (an entry's size, or 1
 * each to bound a count); the least recently stored go first when a new one does not fit, and one
 * heavier than the whole bound is not held. What the in-process memos of the shared caches keep.
 *
 * A value stored `ahead` of its reader (a slot's drivers, warmed before its deliveries run) is never
 * let go for another until it is first read: letting the least recently stored go would drop exactly
 * the values still waited for, while those already read can be read back from where they are shared.
 * When the values waited for fill the bound, a new one stored ahead is the one not held: readers come
 * in about the order their values were stored, so it is the one waited for longest (and it is shared
 * elsewhere meanwhile). A slot warmed well before its fire stores all its values before any is read;
 * letting the oldest go instead dropped nearly every one before its reader came.
 */
export function createTtlMemo<V>(maxWeight: number) {
  type Entry = { until: number; value: V; weight: number };
  // Each in storage order: values stored ahead and not read yet, and all the others.
  const unread = new Map<string, Entry>();
  const read = new Map<string, Entry>();
  let total = 0;
  const drop = (key: string) => {
    const e = read.get(key) ?? unread.get(key);
    if (!e) return;
    total -= e.weight;
    read.delete(key);
    unread.delete(key);
  };
  return {
    /** The value held for `key` and not yet past its deadline; `asReader` false looks without counting as its reader. */
    get(key: string, now = Date.now(), asReader = true): V | undefined {
      const e = read.get(key) ?? unread.get(key);
      if (!e) return undefined;
      if (e.until <= now) {
        drop(key);
        return undefined;
      }
      if (asReader && unread.delete(key)) read.set(key, e);
      return e.value;
    },
    set(key: string, value: V, until: number, weight = 1, ahead = false, now = Date.now()): void {
      drop(key);
      if (weight > maxWeight) return;
      (ahead ? unread : read).set(key, { until, value, weight });
      total += weight;
      // Past their deadline first (stored in time order, so those come first in each queue).
      for (const queue of [read, unread])
        for (const [oldest, e] of queue) {
          if (total <= maxWeight || e.until > now) break;
          drop(oldest);
        }
      // Then the values already read, least recently stored first (the new one too, if it is one).
      for (const oldest of read.keys()) {
        if (total <= maxWeight) return;
        drop(oldest);
      }
      // Only values waited for are left, the new one the newest of them: it is the one not held.
      if (total > maxWeight) drop(key);
    },
    delete: drop,
    /** Keys held, in the order they would be let go. */
    keys: () => [...read.keys(), ...unread.keys()][Symbol.iterator](),
  };
}

/**
 * Reads held for a while under a key, each until a time its value decides, with a way to forget
 * one when what it read changed. A read that a forget overtook (begun before it, ended after) is
 * handed to its caller but not held: it may be the very state that was forgotten. Bounded like
 * `createTtlMemo`, by count.
 *
 * With `refreshAhead` (a fraction of each value's hold), a read in the last part of its value's hold
 * is answered with the held value and starts one new read in the background, so a key read steadily
 * never makes its caller wait for the store (the acking path asks for the same few workspaces many
 * times a second, and a read that waits there lands in its slowest acks). Nothing is held past its
 * time: once a value's hold ends without a newer one, the next read waits as before. A background
 * read that fails is let go; the read after the hold meets the failure.
 */
export function createHeldReads<V>(
  max: number,
  now: () => number = Date.now,
  options: { refreshAhead?: number } = {},
) {
  type Held = { value: V; from: number; until: number };
  const memo = createTtlMemo<Held>(max);
  const ahead = Math.min(1, Math.max(0, options.refreshAhead ?? 0));
  const refreshing = new Set<string>();
  let forgets = 0;
  async function load(key: string, loader: () => Promise<V>, until: (value: V, at: number) => number) {
    const at = now();
    const before = forgets;
    const value = await loader();
    const end = until(value, at);
    if (before === forgets && end > at) memo.set(key, { value, from: at, until: end }, end, 1, false, at);
    return value;
  }
  return {
    /** The value held for `key`, else `loader()`'s, held until `until(value, at)` (not held if not later than `at`). */
    async read(key: string, loader: () => Promise<V>, until: (value: V, at: number) => number): Promise<V> {
      const at = now();
      const kept = memo.get(key, at);
      if (!kept) return load(key, loader, until);
      if (ahead > 0 && at >= kept.until - (kept.until - kept.from) * ahead && !refreshing.has(key)) {
        refreshing.add(key);
        load(key, loader, until)
          .catch(() => undefined)
          .finally(() => refreshing.delete(key));
      }
      return kept.value;
    },
    forget(key: string): void {
      forgets += 1;
      memo.delete(key);
    },
  };
}
