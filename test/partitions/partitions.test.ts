import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespacesUnavailable } from "./netns.ts";
import { FAULTS, type Fault, type RunResult, SHORT_WAITS, startWorld, type World } from "./scenario.ts";

/**
 * The short form of the partition runs (test/bench/partitions/run.ts runs each fault many times):
 * one slot of each fault on Sentinel deployments spread over network namespaces, with the app's
 * default settings (REDIS_CONFIRM_WRITES=auto) and Redis' (min-replicas-to-write 0). Needs root: it
 * fails, saying why, where it cannot make a namespace (CI runs as root). Its own vitest project, run
 * with INSIGHTS_PARTITIONS=1 npx vitest run --project partitions.
 */

/**
 * Its worlds: 40 and 41 (namespaces insp40-… and insp41-…, addresses 10.117.x and 10.118.x), far
 * from the bench's (run.ts numbers them from 0), so neither removes the other's when both run on
 * one machine.
 */
const FIRST_WORLD = 40;

/**
 * Two worlds side by side, each taking its faults in turn: a slot mostly waits (for a promotion, a
 * lease, links back), so two at once take little more CPU than one and half the time.
 */
const PLAN: Fault[][] = [
  ["split-brain", "pause", "lagging-replica"],
  ["half-open", "failovers"],
];

const worlds: World[] = [];
/** Each world's last slot: the next one starts when it has ended. */
const turns: Promise<unknown>[] = PLAN.map(() => Promise.resolve());

beforeAll(async () => {
  const why = namespacesUnavailable();
  if (why)
    throw new Error(
      `The partition tests cannot run here: ${why}. They need root and ip netns (CI runs as root).`,
    );
  // The short form's waits (SHORT_WAITS).
  const started = await Promise.allSettled(
    PLAN.map((_, k) =>
      startWorld({
        world: FIRST_WORLD + k,
        digests: 120,
        concurrency: 10,
        fast: SHORT_WAITS.fast,
        log: (l) => console.info(`[world ${FIRST_WORLD + k}] ${l}`),
      }),
    ),
  );
  for (const s of started) if (s.status === "fulfilled") worlds.push(s.value);
  const failed = started.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
}, 300_000);
afterAll(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
}, 60_000);

/** One slot of `fault` in its world, after the slots before it there. */
function slotOf(fault: Fault): Promise<RunResult> {
  const k = PLAN.findIndex((faults) => faults.includes(fault));
  const slot = (turns[k] as Promise<unknown>).then(() => {
    const world = worlds[k];
    if (!world) throw new Error(`no world ${k}`);
    return world.slot({ fault, minReplicas: 0, settleMs: 300_000, ...SHORT_WAITS.slot });
  });
  turns[k] = slot.catch(() => undefined);
  return slot;
}

describe.concurrent("exactly once through partitions, pauses and silent links", () => {
  it("plans every fault", () => {
    expect(PLAN.flat().sort()).toEqual([...FAULTS].sort());
  });
  for (const fault of FAULTS)
    it(`${fault}: no digest lost or posted twice, posts again soon after, every command answered once`, {
      timeout: 400_000,
    }, async () => {
      const r = await slotOf(fault);
      console.info(`[partitions] ${fault}: ${JSON.stringify(r)}`);
      expect({ lost: r.lost, duplicated: r.duplicated }).toEqual({ lost: 0, duplicated: 0 });
      if (r.undeliveredAtEffect > 0) expect(r.recoverySec).not.toBeNull();
      // Seconds from the fault to the first post after its effect (a promotion, the links back): the
      // fault's own length (30 s for the silent links) plus a few seconds.
      expect(r.recoverySec as number).toBeLessThan(fault === "half-open" ? 60 : 45);
      // The slash commands typed beside the slot: each answered (the digest, or the note that the
      // hand-off failed), none shown twice. What a command that is not got is in the result's notes.
      expect(r.commands).toBeGreaterThan(0);
      expect({ answered: r.answered, shownTwice: r.answeredTwice, notes: r.notes }).toEqual({
        answered: r.commands,
        shownTwice: 0,
        notes: r.notes.filter((n) => !/^(not answered|shown twice)/.test(n)),
      });
    });
});
