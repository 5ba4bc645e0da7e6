/**
 * Small, fast, deterministic hashing. The emulator stores no tables: every number is a function of
 * (api key, day, asset, scanner), so any process computes the same data and tests can recompute it.
 */

/** FNV-1a over the UTF-16 code units of a string, then avalanched. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A murmur3-style finaliser: spreads every input bit over the output. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines integers into one 32-bit hash; order matters. */
export function hashInts(seed: number, ...values: number[]): number {
  let h = seed >>> 0;
  for (const v of values) h = mix32(h ^ Math.imul(v | 0, 0x9e3779b1));
  return h;
}

/** `hashInts(seed, a, b)` without the rest-array allocation, for the per-cell hot loop. */
export function hash3(seed: number, a: number, b: number): number {
  return mix32(mix32(seed ^ Math.imul(a | 0, 0x9e3779b1)) ^ Math.imul(b | 0, 0x9e3779b1));
}

/** A 32-bit hash as a float in [0, 1). */
export function unit(h: number): number {
  return (h >>> 0) / 4_294_967_296;
}

/** A seeded PRNG (mulberry32) for fault rates: reproducible runs of load tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A UUID of version-4 shape derived from a string, so asset ids are stable across runs. */
export function uuidFrom(text: string): string {
  const words = [1, 2, 3, 4].map((i) => hashString(`${i}:${text}`));
  const hex = words.map((w) => w.toString(16).padStart(8, "0")).join("");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
