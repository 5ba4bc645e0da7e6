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
