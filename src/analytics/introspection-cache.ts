import type { AnalyticsIntrospection } from "./types.ts";

/** Per-endpoint memo of introspection answers with a TTL. */
export interface IntrospectionCache {
  /** The cached answer for `url` if fresh enough and not `fresh`-bypassed, else `load()`'s. */
  get(
    url: string,
    load: () => Promise<AnalyticsIntrospection>,
    fresh?: boolean,
  ): Promise<AnalyticsIntrospection>;
}

/**
 * Promises are cached, not values, so concurrent cold callers share one request. A failed load
 * (say, verifying a wrong key) puts back whatever was cached before instead of evicting it.
 */
export function createIntrospectionCache(ttlMs: number, now: () => number): IntrospectionCache {
  const entries = new Map<string, { at: number; answer: Promise<AnalyticsIntrospection> }>();
  return {
    get(url, load, fresh = false) {
      const before = entries.get(url);
      if (before && !fresh && now() - before.at < ttlMs) return before.answer;
      const answer = load();
      entries.set(url, { at: now(), answer });
      answer.catch(() => {
        if (entries.get(url)?.answer !== answer) return;
        if (before) entries.set(url, before);
        else entries.delete(url);
      });
      return answer;
    },
  };
}
