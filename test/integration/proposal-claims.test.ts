import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createKeyScheme } from "../../src/store/keys.ts";
import { claimProposal, finishProposal, releaseProposal } from "../../src/store/proposal-claims.ts";

/** A proposal's Confirm, claimed by the proposal's id: one subscription however often it is pressed. */

const REF = { teamId: "T0PCLAIM1" };
let redis: Redis;
beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await redis.quit();
});

const depsFor = () => ({ redis, keys: createKeyScheme({ prefix: `t-pclaims-${randomUUID().slice(0, 8)}` }) });
const ID = "0123456789abcdef0123456789abcdef";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("proposal claims", () => {
  it("of two presses at once one writes; once written, every later press (or retried job) learns by what", async () => {
    const deps = depsFor();
    const [a, b] = await Promise.all([
      claimProposal(deps, REF, ID, 5_000),
      claimProposal(deps, REF, ID, 5_000),
    ]);
    expect([a.state, b.state].sort()).toEqual(["acquired", "busy"]);
    const won = a.state === "acquired" ? a : b;
    if (won.state !== "acquired") throw new Error("none acquired");
    expect(await finishProposal(deps, REF, ID, won.token, "sub123", 60_000)).toBe(true);
    for (let i = 0; i < 3; i++)
      expect(await claimProposal(deps, REF, ID, 5_000)).toEqual({ state: "done", subscriptionId: "sub123" });
    // Another proposal, and the same one in another workspace, are their own.
    expect((await claimProposal(deps, REF, "fedcba9876543210fedcba9876543210", 5_000)).state).toBe(
      "acquired",
    );
    expect((await claimProposal(deps, { teamId: "T0PCLAIM2" }, ID, 5_000)).state).toBe("acquired");
    // It is remembered for as long as it was told, no longer.
    const ttl = await redis.pttl(deps.keys.proposalClaim(REF, ID));
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("a press whose subscription could not be made gives the proposal back for the next press", async () => {
    const deps = depsFor();
    const first = await claimProposal(deps, REF, ID, 5_000);
    if (first.state !== "acquired") throw new Error("not acquired");
    await releaseProposal(deps, REF, ID, first.token);
    expect((await claimProposal(deps, REF, ID, 5_000)).state).toBe("acquired");
  });

  it("a run that died while writing loses its lease to the next; its late finish changes nothing", async () => {
    const deps = depsFor();
    const dead = await claimProposal(deps, REF, ID, 100);
    if (dead.state !== "acquired") throw new Error("not acquired");
    expect((await claimProposal(deps, REF, ID, 100)).state).toBe("busy");
    await sleep(150);
    const next = await claimProposal(deps, REF, ID, 5_000);
    if (next.state !== "acquired") throw new Error("not taken over");
    expect(await finishProposal(deps, REF, ID, dead.token, "subDEAD", 60_000)).toBe(false);
    await releaseProposal(deps, REF, ID, dead.token);
    expect(await finishProposal(deps, REF, ID, next.token, "subNEXT", 60_000)).toBe(true);
    expect(await claimProposal(deps, REF, ID, 5_000)).toEqual({ state: "done", subscriptionId: "subNEXT" });
  });
});
