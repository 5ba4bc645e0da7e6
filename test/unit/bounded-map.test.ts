import { describe, expect, it } from "vitest";
import { createHeldReads, createTtlMemo, keepRecent } from "../../src/bounded-map.ts";

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
    memo.set("a", "A", 1_000, 4, true, 0); // computed ahead: spared until read
    memo.set("b", "B", 1_000, 4, false, 0);
    memo.set("c", "C", 1_000, 4, true, 0);
    // Full (12). Storing "d" lets "b" go, the one value nobody waits for, not "a", the oldest.
    memo.set("d", "D", 1_000, 4, false, 0);
    expect([...memo.keys()]).toEqual(["d", "a", "c"]);
    // Looking without reading leaves "a" spared; reading it makes it an ordinary value.
    expect(memo.get("a", 0, false)).toBe("A");
    memo.set("e", "E", 1_000, 4, false, 0);
    expect([...memo.keys()]).toEqual(["e", "a", "c"]);
    expect(memo.get("a", 0)).toBe("A");
    memo.set("f", "F", 1_000, 4, false, 0);
    // "e", stored before "a" was read, goes; "a" is now first in line, the unread "c" still last.
    expect([...memo.keys()]).toEqual(["a", "f", "c"]);
    memo.set("g", "G", 1_000, 8, false, 0);
    expect([...memo.keys()]).toEqual(["g", "c"]);
  });

  it("holds the values stored ahead first, not the newest, when they fill the bound (a slot warmed before its fire)", () => {
    const memo = createTtlMemo<number>(12);
    // Six values of a slot, computed ahead in the order their deliveries will read them: room for three.
    for (let i = 0; i < 6; i++) memo.set(`d${i}`, i, 1_000, 4, true, 0);
    expect([...memo.keys()]).toEqual(["d0", "d1", "d2"]);
    // The first delivery reads its value; the next value stored ahead takes the room that reading
    // made (a value already read goes before one waited for).
    expect(memo.get("d0", 0)).toBe(0);
    memo.set("d3", 3, 1_000, 4, true, 0);
    expect([...memo.keys()]).toEqual(["d1", "d2", "d3"]);
    // A value for a reader at hand (not ahead) still finds room only among those already read: none.
    memo.set("x", 9, 1_000, 4, false, 0);
    expect([...memo.keys()]).toEqual(["d1", "d2", "d3"]);
  });

  it("lets values past their deadline go first, waited for or not, so stale ones never block new ones", () => {
    const memo = createTtlMemo<number>(8);
    memo.set("old", 1, 100, 4, true, 0); // its reader never came
    memo.set("kept", 2, 1_000, 4, true, 0);
    // At 500 "old" is past its deadline: it goes, and the new value is held.
    memo.set("new", 3, 1_000, 4, true, 500);
    expect([...memo.keys()]).toEqual(["kept", "new"]);
  });
});

describe("createHeldReads", () => {
  it("holds a read until the time its value decides, and reads again after it or after a forget", async () => {
    let clock = 1_000;
    let loads = 0;
    const reads = createHeldReads<string | undefined>(10, () => clock);
    const load = async () => {
      loads += 1;
      return loads === 1 ? undefined : `v${loads}`;
    };
    const until = (_: string | undefined, at: number) => at + 100;
    // An undefined value is held like any other.
    expect(await reads.read("k", load, until)).toBeUndefined();
    expect(await reads.read("k", load, until)).toBeUndefined();
    expect(loads).toBe(1);
    clock += 100;
    expect(await reads.read("k", load, until)).toBe("v2");
    reads.forget("k");
    expect(await reads.read("k", load, until)).toBe("v3");
    // A value whose time is not later than now is handed out, not held.
    expect(await reads.read("other", load, (_, at) => at)).toBe("v4");
    expect(await reads.read("other", load, (_, at) => at)).toBe("v5");
  });

  it("does not hold a read that a forget overtook", async () => {
    let release: (v: string) => void = () => undefined;
    const reads = createHeldReads<string>(10);
    const slow = reads.read(
      "k",
      () => new Promise<string>((r) => (release = r)),
      (_, at) => at + 60_000,
    );
    reads.forget("k");
    release("before the change");
    expect(await slow).toBe("before the change");
    expect(
      await reads.read(
        "k",
        async () => "after",
        (_, at) => at + 60_000,
      ),
    ).toBe("after");
  });

  describe("with refreshAhead", () => {
    // A store whose reads the test ends by hand, in order.
    function store() {
      const pending: Array<{ resolve: (v: string) => void; reject: (e: Error) => void }> = [];
      let loads = 0;
      const load = () => {
        loads += 1;
        return new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
      };
      return { load, pending, loads: () => loads };
    }
    const hold = (_: string, at: number) => at + 100;
    const settle = () => new Promise((r) => setTimeout(r, 0));
    // Reads held under "k" since time 0 ("v1", held to 100), on a clock the test moves.
    async function primed(refreshAhead: number) {
      const clock = { now: 0 };
      const reads = createHeldReads<string>(10, () => clock.now, { refreshAhead });
      const s = store();
      const first = reads.read("k", s.load, hold);
      s.pending[0]?.resolve("v1");
      expect(await first).toBe("v1");
      return { clock, reads, s };
    }

    it("answers from the held value in the last part of its hold and reads again once, in the background", async () => {
      const { clock, reads, s } = await primed(0.25);
      // Before the last quarter: the held value, no read.
      clock.now = 74;
      expect(await reads.read("k", s.load, hold)).toBe("v1");
      expect(s.loads()).toBe(1);
      // In the last quarter: still the held value, without waiting, and one read begins...
      clock.now = 75;
      expect(await reads.read("k", s.load, hold)).toBe("v1");
      expect(s.loads()).toBe(2);
      // ...and only one while it runs.
      clock.now = 80;
      expect(await reads.read("k", s.load, hold)).toBe("v1");
      expect(s.loads()).toBe(2);
      s.pending[1]?.resolve("v2");
      await settle();
      // The new value is held from when its read began (75) for its own hold (to 175, past the first's
      // end), and its own last quarter begins at 150.
      clock.now = 149;
      expect(await reads.read("k", s.load, hold)).toBe("v2");
      expect(s.loads()).toBe(2);
    });

    it("holds nothing past its time: after the hold ends, the next read waits for the store", async () => {
      const { clock, reads, s } = await primed(0.25);
      clock.now = 100;
      let answered = false;
      const next = reads.read("k", s.load, hold).then((v) => {
        answered = true;
        return v;
      });
      await settle();
      expect(answered).toBe(false);
      s.pending[1]?.resolve("v2");
      expect(await next).toBe("v2");
    });

    it("lets a failed background read go, and the read after the hold meets the failure", async () => {
      const { clock, reads, s } = await primed(0.5);
      clock.now = 60;
      expect(await reads.read("k", s.load, hold)).toBe("v1");
      s.pending[1]?.reject(new Error("store down"));
      await settle();
      // Still within the hold: the held value, and a new background read may begin.
      clock.now = 70;
      expect(await reads.read("k", s.load, hold)).toBe("v1");
      expect(s.loads()).toBe(3);
      s.pending[2]?.reject(new Error("store down"));
      await settle();
      clock.now = 100;
      const after = reads.read("k", s.load, hold);
      s.pending[3]?.reject(new Error("store down"));
      await expect(after).rejects.toThrow("store down");
    });

    it("does not hold a background read that a forget overtook", async () => {
      const { clock, reads, s } = await primed(0.25);
      clock.now = 90;
      expect(await reads.read("k", s.load, hold)).toBe("v1");
      reads.forget("k");
      s.pending[1]?.resolve("before the change");
      await settle();
      const next = reads.read("k", s.load, hold);
      expect(s.loads()).toBe(3);
      s.pending[2]?.resolve("after");
      expect(await next).toBe("after");
    });
  });
});
