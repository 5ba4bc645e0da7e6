import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TopN } from "../../src/top-n.ts";

describe("TopN", () => {
  it("keeps what a stable sort's first `room` would be, for any entries and room", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), fc.nat(12), (keys, room) => {
        // Entries with equal keys stay told apart by where they were offered.
        const entries = keys.map((key, at) => ({ key, at }));
        const top = new TopN<{ key: number; at: number }>(room, (a, b) => a.key - b.key);
        for (const e of entries) top.offer(e);
        const sorted = [...entries].sort((a, b) => a.key - b.key);
        expect(top.kept).toEqual(sorted.slice(0, room));
      }),
    );
  });

  it("names its worst only once every place is taken", () => {
    const top = new TopN<number>(2, (a, b) => a - b);
    top.offer(5);
    expect(top.worst).toBeUndefined();
    top.offer(3);
    expect(top.worst).toBe(5);
    top.offer(4);
    expect([top.kept, top.worst]).toEqual([[3, 4], 4]);
  });
});
