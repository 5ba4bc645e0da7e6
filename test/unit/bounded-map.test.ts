import { describe, expect, it } from "vitest";
import { createTtlMemo, keepRecent } from "../../src/bounded-map.ts";

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

describe("createTtlMemo", () => {
  it("holds values until their deadline, within a total weight; the least recently stored go first", () => {
    const memo = createTtlMemo<string>(10);
    memo.set("a", "A", 1_000, 4);
    memo.set("b", "B", 1_000, 4);
    memo.set("a", "A2", 1_000, 4); // stored again: now the most recent
    memo.set("c", "C", 1_000, 4); // 12 > 10: "b", the least recently stored, goes
    expect([...memo.keys()]).toEqual(["a", "c"]);
    expect(memo.get("a", 999)).toBe("A2");
    expect(memo.get("b", 999)).toBeUndefined();
    // Past its deadline an entry is gone, and its weight with it.
    expect(memo.get("c", 1_000)).toBeUndefined();
    memo.set("d", "D", 2_000, 6);
    expect([...memo.keys()]).toEqual(["a", "d"]);
  });

  it("never holds a value heavier than the bound, and counts one per entry by default", () => {
    const memo = createTtlMemo<number>(2);
    memo.set("big", 1, 1_000, 3);
    expect(memo.get("big", 0)).toBeUndefined();
    for (const k of ["x", "y", "z"]) memo.set(k, 1, 1_000);
    expect([...memo.keys()]).toEqual(["y", "z"]);
    memo.delete("y");
    expect([...memo.keys()]).toEqual(["z"]);
  });

  it("lets values already read go before values stored ahead of their reader, until they are read", () => {
    const memo = createTtlMemo<string>(12);
    memo.set("a", "A", 1_000, 4, true); // computed ahead: spared until read
    memo.set("b", "B", 1_000, 4);
    memo.set("c", "C", 1_000, 4, true);
    // Full (12). Storing "d" lets "b" go, the one value nobody waits for, not "a", the oldest.
    memo.set("d", "D", 1_000, 4);
    expect([...memo.keys()]).toEqual(["d", "a", "c"]);
    // Looking without reading leaves "a" spared; reading it makes it an ordinary value.
    expect(memo.get("a", 0, false)).toBe("A");
    memo.set("e", "E", 1_000, 4);
    expect([...memo.keys()]).toEqual(["e", "a", "c"]);
    expect(memo.get("a", 0)).toBe("A");
    memo.set("f", "F", 1_000, 4);
    // "e", stored before "a" was read, goes; "a" is now first in line, the unread "c" still last.
    expect([...memo.keys()]).toEqual(["a", "f", "c"]);
    memo.set("g", "G", 1_000, 8);
    expect([...memo.keys()]).toEqual(["g", "c"]);
  });
});
