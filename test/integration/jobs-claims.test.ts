import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDeliveryClaims } from "../../src/jobs/claims.ts";
import { createKeyScheme } from "../../src/store/keys.ts";

const REF = { teamId: "T0CLAIMS1" };
const P = "20261102T080000Z";
let redis: Redis;

beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await redis.quit();
});

const claimsFor = (leaseMs = 200) => {
  const keys = createKeyScheme({ prefix: `t-claims-${randomUUID().slice(0, 8)}` });
  return {
    claims: createDeliveryClaims({ redis, keys, leaseMs, doneTtlMs: 60_000 }),
    key: keys.deliveryClaim(REF, "abcd1234", P),
  };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("delivery claims", () => {
  it("one taker per period; the others learn how long to wait", async () => {
    const { claims } = claimsFor(5_000);
    const [a, b] = await Promise.all([claims.claim(REF, "abcd1234", P), claims.claim(REF, "abcd1234", P)]);
    const states = [a.state, b.state].sort();
    expect(states).toEqual(["acquired", "busy"]);
    const busy = a.state === "busy" ? a : b;
    expect(busy.state === "busy" && busy.retryInMs).toBeGreaterThan(4_000);
    // Another period is another claim.
    expect((await claims.claim(REF, "abcd1234", "20261109T080000Z")).state).toBe("acquired");
  });

  it("a finished claim answers done with its outcome, to every later taker", async () => {
    const { claims, key } = claimsFor();
    const first = await claims.claim(REF, "abcd1234", P);
    expect(first.state).toBe("acquired");
    await claims.finish(REF, "abcd1234", P, "delivered", "1700000000.000100");
    expect(await claims.claim(REF, "abcd1234", P)).toEqual({
      state: "done",
      outcome: "delivered",
      detail: "1700000000.000100",
    });
    expect(await redis.pttl(key)).toBeGreaterThan(50_000);
    if (first.state === "acquired") expect(await claims.confirm(REF, "abcd1234", P, first.token)).toBe(false);
  });

  it("a lease runs out so a dead holder's period can be taken over; confirm notices who holds it", async () => {
    const { claims } = claimsFor(150);
    const dead = await claims.claim(REF, "abcd1234", P);
    await sleep(200);
    const next = await claims.claim(REF, "abcd1234", P);
    expect(next.state).toBe("acquired");
    if (dead.state !== "acquired" || next.state !== "acquired") throw new Error("unreachable");
    expect(await claims.confirm(REF, "abcd1234", P, dead.token)).toBe(false);
    expect(await claims.confirm(REF, "abcd1234", P, next.token)).toBe(true);
    // Expired with nobody else in: the holder takes it back instead of losing the run.
    await sleep(200);
    expect(await claims.confirm(REF, "abcd1234", P, next.token)).toBe(true);
    expect((await claims.claim(REF, "abcd1234", P)).state).toBe("busy");
  });

  it("only the holder releases, and a released period can be taken at once", async () => {
    const { claims } = claimsFor(10_000);
    const held = await claims.claim(REF, "abcd1234", P);
    if (held.state !== "acquired") throw new Error("unreachable");
    await claims.release(REF, "abcd1234", P, "someone-else");
    expect((await claims.claim(REF, "abcd1234", P)).state).toBe("busy");
    await claims.release(REF, "abcd1234", P, held.token);
    expect((await claims.claim(REF, "abcd1234", P)).state).toBe("acquired");
  });
});
