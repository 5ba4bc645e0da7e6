import { describe, expect, it } from "vitest";
import { keepRecent } from "../../src/bounded-map.ts";

describe("keepRecent", () => {
  it("keeps the most recently stored entries up to the bound; storing again makes an entry recent", () => {
    const m = new Map<string, number>();
    for (const [k, v] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      keepRecent(m, k, v, 3);
    keepRecent(m, "a", 10, 3);
    keepRecent(m, "d", 4, 3);
    // "b" was the least recently stored: it went; "a" stayed, with its new value, as the newest but one.
    expect([...m]).toEqual([
      ["c", 3],
      ["a", 10],
      ["d", 4],
    ]);
  });
});
