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
 */
export function createTtlMemo<V>(maxWeight: number) {
  const entries = new Map<string, { until: number; value: V; weight: number }>();
  let total = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    total -= e.weight;
    entries.delete(key);
  };
  return {
    /** The value held for `key` and not yet past its deadline. */
    get(key: string, now = Date.now()): V | undefined {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.until > now) return e.value;
      drop(key);
      return undefined;
    },
    set(key: string, value: V, until: number, weight = 1): void {
      drop(key);
      if (weight > maxWeight) return;
      entries.set(key, { until, value, weight });
      total += weight;
      for (const oldest of entries.keys()) {
        if (total <= maxWeight) break;
        drop(oldest);
      }
    },
    delete: drop,
    keys: () => entries.keys(),
  };
}
