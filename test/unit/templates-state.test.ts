import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { decodeState, encodeState, encodeStateWithin } from "../../templates/state.ts";

const id = fc
  .string({ minLength: 1, maxLength: 75, unit: "grapheme" })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ids with control characters are the junk decodeState refuses
  .filter((s) => s.length <= 75 && !/[\u0000-\u001f\u007f]/.test(s));
const range = fc.oneof(
  fc.constantFrom("last7d", "last30d", "thisweek", "lastmonth", "2026-11-15"),
  fc.constant("2026-11-01..2026-11-15"),
  fc.integer({ min: 1, max: 365 }).map((n) => `last${n}d`),
);
const state = fc.record({
  range,
  assetIds: fc.array(id, { maxLength: 20 }),
  scannerIds: fc.array(id, { maxLength: 20 }),
});

function badState(text: unknown): AppError {
  try {
    decodeState(text);
  } catch (err) {
    return err as AppError;
  }
  throw new Error(`decodeState accepted ${JSON.stringify(text)}`);
}

describe("digest state", () => {
  it("round-trips any state", () => {
    fc.assert(
      fc.property(state, (s) => {
        expect(decodeState(encodeState(s))).toEqual(s);
      }),
    );
  });

  it("is compact: short keys, empty lists left out", () => {
    expect(encodeState({ range: "last7d", assetIds: [], scannerIds: [] })).toBe('{"r":"last7d"}');
    expect(encodeState({ range: "last7d", assetIds: ["a1"], scannerIds: ["s"] })).toBe(
      '{"r":"last7d","a":["a1"],"s":["s"]}',
    );
  });

  it("fits a budget by dropping ids from the end, scanners first, keeping the range", () => {
    fc.assert(
      fc.property(state, fc.integer({ min: 20, max: 2000 }), (s, max) => {
        const encoded = encodeStateWithin(s, max);
        expect(encoded.length).toBeLessThanOrEqual(
          Math.max(max, encodeState({ ...s, assetIds: [], scannerIds: [] }).length),
        );
        const back = decodeState(encoded);
        expect(back.range).toBe(s.range);
        expect(s.assetIds.slice(0, back.assetIds.length)).toEqual(back.assetIds);
        expect(s.scannerIds.slice(0, back.scannerIds.length)).toEqual(back.scannerIds);
        if (back.assetIds.length < s.assetIds.length) expect(back.scannerIds).toEqual([]);
        if (encodeState(s).length <= max) expect(back).toEqual(s);
      }),
    );
  });

  it("keeps a typical state within a block_id (255)", () => {
    const uuid = "3f0c5a52-1b7e-4c1a-9d7e-0a1b2c3d4e01";
    const s = {
      range: "2026-11-01..2026-11-15",
      assetIds: [uuid, uuid.replace("01", "02")],
      scannerIds: ["semgrep", "trivy"],
    };
    const encoded = encodeStateWithin(s, 255);
    expect(decodeState(encoded)).toEqual(s);
  });

  it.each([
    ["not a string", 42],
    ["empty", ""],
    ["not JSON", "{r:last7d"],
    ["JSON but not an object", "[1,2]"],
    ["missing range", '{"a":["x"]}'],
    ["range with odd characters", '{"r":"last7d; drop"}'],
    ["ids not a list", '{"r":"last7d","a":"x"}'],
    ["an empty id", '{"r":"last7d","a":[""]}'],
    ["an id over 75", JSON.stringify({ r: "last7d", a: ["x".repeat(76)] })],
    ["an id with a control character", JSON.stringify({ r: "last7d", s: ["a\nb"] })],
    ["too many ids", JSON.stringify({ r: "last7d", a: Array.from({ length: 101 }, (_, i) => `a${i}`) })],
    ["too long to be ours", `{"r":"last7d","x":"${"y".repeat(3000)}"}`],
  ])("rejects %s with a bad_state AppError", (_, junk) => {
    const err = badState(junk);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("bad_state");
  });

  it("rejects arbitrary strings without throwing anything but bad_state", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (junk) => {
        try {
          const s = decodeState(junk);
          expect(typeof s.range).toBe("string");
        } catch (err) {
          expect((err as AppError).code).toBe("bad_state");
        }
      }),
    );
  });
});
