import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * Cached JSON as the shared caches keep it in Redis: deflated, then base64 (Redis strings read back
 * as text). Level 3, not zlib's default 6: on recorded drivers results (~5.4 KB of JSON) it deflates
 * in about a third less time (62-65 against 96-102 µs) for 9 % more bytes
 * (`node --import tsx test/bench/packed-text-level.ts`), and every cached value is packed once per
 * computation while it lives in Redis for a couple of minutes at most.
 */
export const packText = (text: string): string =>
  deflateRawSync(Buffer.from(text), { level: 3 }).toString("base64");

/** The text `packText` packed. */
export const unpackText = (packed: string): string =>
  inflateRawSync(Buffer.from(packed, "base64")).toString("utf8");
