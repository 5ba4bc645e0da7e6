import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * Cached JSON as the shared caches keep it in Redis. A JSON object shorter than `RAW_BELOW`
 * characters is kept as it is: a drivers result (~5.4 KB) is packed once per digest of a storm, and
 * deflating it cost more of the worker's time than the few kilobytes it saves in a value Redis
 * holds for two minutes (`node --import tsx test/bench/packed-text-level.ts`). Longer text is
 * deflated, then base64 (Redis strings read back as text), at level 3, not zlib's default 6: about a
 * third less time for 9 % more bytes. Base64 never begins with `{`, so the reader tells the two apart.
 */
export const RAW_BELOW = 16_384;

/**
 * This form's name, which the key of every entry packed in it carries. Releases up to 0.0.3 kept the
 * same caches deflated whatever their length, and read every entry by inflating it: an entry kept as
 * plain JSON under the key they would use made their deliveries fail while they ran beside this
 * version in a rolling deploy. Under keys of its own an entry in this form is never met by them (they
 * compute their own), and the same holds for any later change of form that changes this name.
 */
export const PACKED_FORM = "p1";

export const packText = (text: string): string =>
  text.length < RAW_BELOW && text.startsWith("{")
    ? text
    : deflateRawSync(Buffer.from(text), { level: 3 }).toString("base64");

/** The text `packText` packed. */
export const unpackText = (packed: string): string =>
  packed.startsWith("{") ? packed : inflateRawSync(Buffer.from(packed, "base64")).toString("utf8");
