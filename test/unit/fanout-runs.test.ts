import type { Job } from "bullmq";
import { describe, expect, it } from "vitest";
import { type FanOutDeps, FIRST_ROUND, fanOut, firstRunLength } from "../../src/jobs/fanout.ts";
import { DEFAULT_POLICY, type DeliveryJobData, type DeliveryQueue } from "../../src/jobs/queue.ts";
import { silentLogger } from "../../src/log.ts";
import type { WorkspaceRef } from "../../src/store/keys.ts";
import { compactRef, parseSchedulerId } from "../../src/subscriptions/ids.ts";

/**
 * The order a slot's fan-out adds its deliveries in, and their priorities (BullMQ takes the lowest
 * priority first, and jobs of one priority in the order they were added): each workspace is dealt a
 * run of its members per round, so a small workspace goes out whole in the first round and an
 * account's digests, which share one drivers computation, go out together.
 */

const FIRE = Date.UTC(2026, 10, 27, 9, 0, 0);
const subId = (team: string, i: number) => `${team.toLowerCase().slice(-4)}${String(i).padStart(4, "0")}`;

interface Added {
  team: string;
  sub: string;
  priority: number;
}

function world(
  members: Record<string, number>,
  o: { pageSize?: number; runLength?: number; firstRound?: number; pages?: Record<string, number[]> } = {},
) {
  const refs = Object.keys(members).map((teamId) => compactRef({ teamId }));
  const added: Added[] = [];
  const warmed: { team: string; members: number }[] = [];
  // Each workspace's pages are asked once each, in order.
  const pagesLeft = new Map(Object.entries(o.pages ?? {}).map(([team, sizes]) => [team, [...sizes]]));
  const deps: FanOutDeps = {
    store: {
      // Pages of the workspace's members in order; the cursor is the next index ("0" once done). Redis
      // pages a large hash with HSCAN, whose COUNT is a hint: `pages` gives a workspace's page sizes.
      async slotPage(ref: WorkspaceRef, _slot: string, cursor: string, count: number) {
        const team = ref.teamId ?? "";
        const all = Array.from({ length: members[team] ?? 0 }, (_, i) => [subId(team, i), `C${i}`]) as [
          string,
          string,
        ][];
        const from = Number(cursor);
        const size = pagesLeft.get(team)?.shift() ?? count;
        const page = all.slice(from, from + size);
        return { members: page, cursor: from + size >= all.length ? "0" : String(from + size) };
      },
    },
    registry: { workspaces: async () => refs, leave: async () => 0 },
    queue: {
      async addBulk(jobs: { data: DeliveryJobData; opts: { priority: number } }[]) {
        for (const j of jobs) {
          const ids = parseSchedulerId(j.data.sub ?? "");
          added.push({ team: ids?.ref.teamId ?? "?", sub: ids?.subId ?? "?", priority: j.opts.priority });
        }
        return [];
      },
    } as unknown as DeliveryQueue,
    policy: DEFAULT_POLICY,
    logger: silentLogger(),
    warm: (ref, page) => warmed.push({ team: ref.teamId ?? "", members: page.length }),
    ...(o.pageSize ? { pageSize: o.pageSize } : {}),
    ...(o.runLength ? { runLength: o.runLength } : {}),
    ...(o.firstRound ? { firstRound: o.firstRound } : {}),
  };
  const job = { id: "slot-job", data: { slot: "slot1" }, opts: { prevMillis: FIRE } } as unknown as Job<
    DeliveryJobData,
    unknown,
    string
  >;
  return { deps, job, added, warmed };
}

/** The jobs as BullMQ would hand them out: by priority, then in the order they were added. */
const takenInOrder = (added: Added[]) =>
  added.map((a, i) => ({ ...a, i })).sort((a, b) => a.priority - b.priority || a.i - b.i);

describe("a slot's fan-out deals each workspace a run of its members per round", () => {
  it("a workspace of 3 goes out whole in the first round, beside the first 10 of one with 25; each one's first member before either's second", async () => {
    const w = world({ TBIG00001: 25, TSMALL001: 3 });
    expect(await fanOut(w.deps, w.job)).toMatchObject({ status: "fanned_out", jobs: 28 });
    const order = takenInOrder(w.added).map((a) => `${a.team}:${a.priority}`);
    expect(order).toEqual([
      "TBIG00001:1",
      "TSMALL001:1",
      ...Array(9).fill("TBIG00001:2"),
      ...Array(2).fill("TSMALL001:2"),
      ...Array(10).fill("TBIG00001:3"),
      ...Array(5).fill("TBIG00001:4"),
    ]);
    // Each workspace's members keep their own order, every one of them added once.
    const big = takenInOrder(w.added).filter((a) => a.team === "TBIG00001");
    expect(big.map((a) => a.sub)).toEqual(Array.from({ length: 25 }, (_, i) => subId("TBIG00001", i)));
  });

  it("with a run of one, it deals one member of each workspace in turn", async () => {
    const w = world({ TAAAA0001: 3, TBBBB0001: 2 }, { runLength: 1 });
    await fanOut(w.deps, w.job);
    expect(takenInOrder(w.added).map((a) => `${a.team}:${a.priority}`)).toEqual([
      "TAAAA0001:1",
      "TBBBB0001:1",
      "TAAAA0001:2",
      "TBBBB0001:2",
      "TAAAA0001:3",
    ]);
  });

  it("pages of any size: a run the page cuts goes out whole with the next page", async () => {
    // Runs of 3; A's pages come back 4, 3 and 5 long, B's 2 and 4 (HSCAN's COUNT is only a hint).
    const w = world(
      { TAAAA0001: 12, TBBBB0001: 6 },
      { runLength: 3, pages: { TAAAA0001: [4, 3, 5], TBBBB0001: [2, 4] } },
    );
    await fanOut(w.deps, w.job);
    const taken = takenInOrder(w.added);
    expect(taken.map((a) => `${a.team.slice(1, 2)}${a.priority}`).join(" ")).toBe(
      "A1 B1 A2 A2 B2 B2 A3 A3 A3 B3 B3 B3 A4 A4 A4 A5 A5 A5",
    );
    // Every member once, each workspace's in its own order.
    for (const [team, n] of [
      ["TAAAA0001", 12],
      ["TBBBB0001", 6],
    ] as const)
      expect(taken.filter((a) => a.team === team).map((a) => a.sub)).toEqual(
        Array.from({ length: n }, (_, i) => subId(team, i)),
      );
  });

  it("pages as a hashtable's HSCAN returns them: each workspace's runs of ten still go out whole", async () => {
    // Pages of about 100, as redis-server 7.0 returns them for a hash past its compact size (512 members).
    const w = world(
      { TAAAA0001: 250, TBBBB0001: 230, TCCCC0001: 5, TDDDD0001: 200 },
      { pages: { TAAAA0001: [103, 97, 50], TBBBB0001: [98, 102, 30], TDDDD0001: [101, 99] } },
    );
    expect(await fanOut(w.deps, w.job)).toMatchObject({ jobs: 685 });
    const taken = takenInOrder(w.added);
    expect(new Set(taken.map((a) => `${a.team}/${a.sub}`)).size).toBe(685);
    // Where each workspace's runs were taken (its first member, the other nine of its first run, then
    // runs of ten): neighbouring places, in member order.
    for (const team of ["TAAAA0001", "TBBBB0001", "TCCCC0001", "TDDDD0001"]) {
      const at = taken.flatMap((a, i) => (a.team === team ? [{ i, sub: a.sub }] : []));
      expect(at.map((a) => a.sub)).toEqual(at.map((_, k) => subId(team, k)));
      const starts = [0, 1];
      for (let r = 10; r < at.length; r += 10) starts.push(r);
      for (const [run, start] of starts.entries()) {
        const places = at.slice(start, starts[run + 1] ?? at.length).map((a) => a.i);
        expect({ team, run, spread: (places.at(-1) ?? 0) - (places[0] ?? 0) }).toEqual({
          team,
          run,
          spread: places.length - 1,
        });
      }
    }
    // The workspace of five is whole in the first round (its first member, then the other four).
    expect(taken.filter((a) => a.team === "TCCCC0001").map((a) => a.priority)).toEqual([1, 2, 2, 2, 2]);
  });

  it("a run's round goes on across pages of members: priorities follow the rank, not the page", async () => {
    // Pages of 4 and runs of 3: the second page starts inside the second run.
    const w = world({ TPAGED001: 10, TOTHER001: 2 }, { pageSize: 4, runLength: 3 });
    await fanOut(w.deps, w.job);
    const paged = w.added.filter((a) => a.team === "TPAGED001");
    expect(paged.map((a) => a.priority)).toEqual([1, 2, 2, 3, 3, 3, 4, 4, 4, 5]);
    expect(w.added.filter((a) => a.team === "TOTHER001").map((a) => a.priority)).toEqual([1, 2]);
    // The warm-up hears of every page as it is read, so the drivers are planned in the same order.
    expect(w.warmed).toEqual([
      { team: "TPAGED001", members: 4 },
      { team: "TOTHER001", members: 2 },
      { team: "TPAGED001", members: 4 },
      { team: "TPAGED001", members: 2 },
    ]);
  });

  it("hands no page to the warm-up when the lookahead walked this fire's members already; all when it did not", async () => {
    const asked: string[] = [];
    for (const ahead of [true, false]) {
      const w = world({ TWALK0001: 12 }, { pageSize: 5 });
      w.deps.warmedAhead = async (slotId, period) => {
        asked.push(`${slotId}/${period}`);
        return ahead;
      };
      expect(await fanOut(w.deps, w.job)).toMatchObject({ status: "fanned_out", jobs: 12 });
      expect(w.warmed.reduce((n, p) => n + p.members, 0)).toBe(ahead ? 0 : 12);
    }
    // Asked for this slot and this fire's period.
    expect(new Set(asked)).toEqual(new Set(["slot1/20261127T090000Z"]));
    // A failed look warms as before.
    const w = world({ TWALK0001: 3 });
    w.deps.warmedAhead = async () => {
      throw new Error("redis went away");
    };
    await fanOut(w.deps, w.job);
    expect(w.warmed.reduce((n, p) => n + p.members, 0)).toBe(3);
  });

  it("a slot of 200 workspaces of 10: the first 200 jobs taken are one of each; the next 45 belong to 5 accounts, not 45", async () => {
    const members = Object.fromEntries(
      Array.from({ length: 200 }, (_, w) => [`TW${String(w).padStart(7, "0")}`, 10]),
    );
    const w = world(members);
    await fanOut(w.deps, w.job);
    const taken = takenInOrder(w.added);
    expect(new Set(taken.slice(0, 200).map((a) => a.team)).size).toBe(200);
    expect(new Set(taken.slice(200, 245).map((a) => a.team)).size).toBe(5);
    // Every workspace's whole run is in the first round.
    expect(w.added.every((a) => a.priority <= 2)).toBe(true);
  });
});

describe("a slot of many workspaces starts delivering before its fan-out has read them all", () => {
  it("the first group's jobs are added before the second group's pages are read; BullMQ's order is unchanged", async () => {
    // 200 workspaces of 3, read 64 at a time: the first 64 workspaces' 192 jobs go out (fewer than a
    // batch of 500) before workspace 65 is read.
    const members = Object.fromEntries(
      Array.from({ length: 200 }, (_, w) => [`TW${String(w).padStart(7, "0")}`, 3]),
    );
    const w = world(members);
    const events: string[] = [];
    const read = w.deps.store.slotPage.bind(w.deps.store);
    w.deps.store.slotPage = async (ref, slot, cursor, count) => {
      events.push(`read ${ref.teamId}`);
      return read(ref, slot, cursor, count);
    };
    const add = w.deps.queue.addBulk.bind(w.deps.queue);
    w.deps.queue.addBulk = (async (jobs: Parameters<typeof add>[0]) => {
      events.push(`add ${jobs.length}`);
      return add(jobs);
    }) as typeof add;
    await fanOut(w.deps, w.job);
    expect(events.indexOf("add 192")).toBeGreaterThan(events.indexOf("read TW0000063"));
    expect(events.indexOf("add 192")).toBeLessThan(events.indexOf("read TW0000064"));
    // Every workspace's first member before any second, all 600 once.
    const taken = takenInOrder(w.added);
    expect(taken).toHaveLength(600);
    expect(new Set(taken.slice(0, 200).map((a) => a.team)).size).toBe(200);
    expect(taken.slice(0, 200).every((a) => a.priority === 1)).toBe(true);
  });
});

describe("a slot of more workspaces than its first round holds", () => {
  it("deals each workspace a shorter first run, so every workspace's first digest comes before any second", async () => {
    // 40 workspaces: one of 250 members, 39 of 12; a first round of 60 jobs: 60 / 40 → first runs of 1.
    const members: Record<string, number> = { TBIG00001: 250 };
    for (let w = 0; w < 39; w++) members[`TW${String(w).padStart(7, "0")}`] = 12;
    const w = world(members, { firstRound: 60, pageSize: 7 });
    expect(await fanOut(w.deps, w.job)).toMatchObject({ jobs: 250 + 39 * 12 });
    const taken = takenInOrder(w.added);
    // The first 40 taken: one of each workspace, at priority 1.
    expect(new Set(taken.slice(0, 40).map((a) => a.team)).size).toBe(40);
    expect(taken.slice(0, 40).every((a) => a.priority === 1)).toBe(true);
    // Then runs of ten: each workspace's members 1–10 at priority 2, 11–20 at 3, … in member order.
    const big = taken.filter((a) => a.team === "TBIG00001");
    expect(big.map((a) => a.sub)).toEqual(Array.from({ length: 250 }, (_, i) => subId("TBIG00001", i)));
    expect(big.map((a) => a.priority)).toEqual(
      Array.from({ length: 250 }, (_, i) => (i === 0 ? 1 : Math.floor((i - 1) / 10) + 2)),
    );
    // A run the page (7) cuts still goes out whole: each later run of ten sits in ten neighbouring places.
    const at = taken.flatMap((a, i) => (a.team === "TBIG00001" ? [i] : []));
    for (let start = 1; start + 10 <= 250; start += 10)
      expect((at[start + 9] ?? 0) - (at[start] ?? 0)).toBe(9);
  });

  it("keeps runs of ten in the first round while they fit (the first round's size over the workspaces)", async () => {
    expect(firstRunLength(200, 10, FIRST_ROUND)).toBe(10);
    expect(firstRunLength(1_000, 10, FIRST_ROUND)).toBe(3);
    expect(firstRunLength(5_000, 10, FIRST_ROUND)).toBe(1);
    expect(firstRunLength(50_000, 10, FIRST_ROUND)).toBe(1);
    const w = world({ TAAAA0001: 5, TBBBB0001: 9 }, { firstRound: 10 });
    await fanOut(w.deps, w.job);
    // 10 / 2 workspaces → first runs of 5: each one's first member, then A's other 4 and B's next 4,
    // then B's last 4 at priority 3.
    expect(
      takenInOrder(w.added)
        .map((a) => `${a.team.slice(1, 2)}${a.priority}`)
        .join(" "),
    ).toBe("A1 B1 A2 A2 A2 A2 B2 B2 B2 B2 B3 B3 B3 B3");
  });
});

describe("a gated slot deals out only the fires that fall on a run day", () => {
  // The last working day fires on the 26th to the 31st; November 2026 ends on Monday the 30th.
  const gated = (fire: number, tz: string) =>
    ({
      id: "slot-job",
      data: { slot: "slot1", gate: "last-workday", tz, pattern: "0 9 26-31 * *" },
      opts: { prevMillis: fire },
    }) as unknown as Job<DeliveryJobData, unknown, string>;

  it("Friday the 27th is not the month's last working day: nothing is added or warmed", async () => {
    const w = world({ TAAAA0001: 3 });
    const r = await fanOut({ ...w.deps, clock: () => new Date(FIRE + 30_000) }, gated(FIRE, "UTC"));
    expect(r).toEqual({ status: "skipped", why: "not_a_run_day", period: "20261127T090000Z" });
    expect(w.added).toHaveLength(0);
    expect(w.warmed).toHaveLength(0);
  });

  it("Monday the 30th is: every member is added", async () => {
    const w = world({ TAAAA0001: 3 });
    const r = await fanOut(w.deps, gated(Date.UTC(2026, 10, 30, 9, 0, 0), "UTC"));
    expect(r).toMatchObject({ status: "fanned_out", jobs: 3 });
    expect(w.added).toHaveLength(3);
  });

  it("a fire that ran late past the run day (workers down) deals out that run day, once, in its place", async () => {
    const w = world({ TAAAA0001: 3 });
    // The fire of the 27th, run on Dec 2 after an outage: BullMQ made no fire for the 28th to the 31st.
    const late = { ...w.deps, clock: () => new Date("2026-12-02T10:00:00Z") };
    const r = await fanOut(late, gated(FIRE, "UTC"));
    expect(r).toMatchObject({ status: "fanned_out", period: "20261130T090000Z", jobs: 3 });
    // Late, but before the run day: still nothing.
    const early = { ...world({ TAAAA0001: 3 }).deps, clock: () => new Date("2026-11-29T10:00:00Z") };
    expect(await fanOut(early, gated(FIRE, "UTC"))).toMatchObject({
      status: "skipped",
      why: "not_a_run_day",
    });
  });

  it("the zone's date decides: 01:00 on Dec 1 in UTC is still Nov 30 in New York", async () => {
    const w = world({ TAAAA0001: 2 });
    const fire = Date.UTC(2026, 11, 1, 1, 0, 0);
    expect(await fanOut(w.deps, gated(fire, "America/New_York"))).toMatchObject({ status: "fanned_out" });
    const onTime = { ...world({ TAAAA0001: 2 }).deps, clock: () => new Date(fire + 1_000) };
    expect(await fanOut(onTime, gated(fire, "UTC"))).toMatchObject({ status: "skipped" });
  });
});
