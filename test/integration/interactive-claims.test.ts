import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createRequestClaims } from "../../src/interactive/claims.ts";
import { silentLogger } from "../../src/log.ts";
import { createWriteConfirmer } from "../../src/store/confirm-writes.ts";
import { createKeyScheme } from "../../src/store/keys.ts";

const REF = { teamId: "T0ICLAIM1" };
const ID = "r0123456789abcdef";
let redis: Redis;

beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await redis.quit();
});

const claimsFor = (leaseMs = 200) =>
  createRequestClaims({
    redis,
    keys: createKeyScheme({ prefix: `t-iclaims-${randomUUID().slice(0, 8)}` }),
    leaseMs,
    doneTtlMs: 60_000,
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Claims whose answers wait for a replica that never acknowledges (REDIS_CONFIRM_WRITES=replica on a
 * server with none), on a connection of their own (`decisive`, for the test to close).
 */
function unconfirmedClaims() {
  const decisive = redis.duplicate();
  const keys = createKeyScheme({ prefix: `t-iclaims-${randomUUID().slice(0, 8)}` });
  const claims = createRequestClaims({
    redis: decisive,
    keys,
    leaseMs: 60_000,
    doneTtlMs: 60_000,
    confirmer: createWriteConfirmer({
      redis: decisive,
      mode: "replica",
      timeoutMs: 100,
      logger: silentLogger(),
    }),
  });
  return { claims, keys, decisive };
}

describe("interactive request claims", () => {
  it("one run holds a request at a time; another learns how long to wait", async () => {
    const claims = claimsFor(5_000);
    const [a, b] = await Promise.all([claims.claim(REF, ID), claims.claim(REF, ID)]);
    expect([a.state, b.state].sort()).toEqual(["acquired", "busy"]);
    const busy = a.state === "busy" ? a : b;
    expect(busy.state === "busy" && busy.retryInMs).toBeGreaterThan(4_000);
    expect((await claims.claim(REF, "r-another-request")).state).toBe("acquired");
  });

  it("an answered request is skipped by every later run", async () => {
    const claims = claimsFor();
    const first = await claims.claim(REF, ID);
    expect(first).toMatchObject({ state: "acquired", sent: false });
    if (first.state !== "acquired") throw new Error("not acquired");
    await claims.finish(REF, ID, first.token);
    expect(await claims.claim(REF, ID)).toEqual({ state: "done" });
    expect(await claims.renew(REF, ID, first.token)).toBe(false);
    expect(await claims.confirmSending(REF, ID, first.token)).toBe(false);
  });

  it("an answered request leaves one key, not two", async () => {
    const keys = createKeyScheme({ prefix: `t-iclaims-${randomUUID().slice(0, 8)}` });
    const claims = createRequestClaims({ redis, keys, leaseMs: 5_000, doneTtlMs: 60_000 });
    const c = await claims.claim(REF, ID);
    if (c.state !== "acquired") throw new Error("not acquired");
    expect(await claims.confirmSending(REF, ID, c.token)).toBe(true);
    const k = `${keys.namespace(REF)}:ireq:${ID}`;
    expect(await redis.exists(k, `${k}:sent`)).toBe(2);
    await claims.finish(REF, ID, c.token);
    expect(await redis.get(k)).toBe("d");
    expect(await redis.exists(`${k}:sent`)).toBe(0);
    expect(await redis.pttl(k)).toBeGreaterThan(50_000);
  });

  it("a dead run's lease runs out; the takeover learns whether an answer may already be out", async () => {
    const claims = claimsFor(150);
    const quiet = await claims.claim(REF, ID);
    expect(quiet.state).toBe("acquired");
    await sleep(200);
    expect(await claims.claim(REF, ID)).toMatchObject({ state: "acquired", sent: false });
    await sleep(200);
    const taken = await claims.claim(REF, ID);
    if (taken.state !== "acquired") throw new Error("not acquired");
    expect(await claims.confirmSending(REF, ID, taken.token)).toBe(true);
    await sleep(200);
    expect(await claims.claim(REF, ID)).toMatchObject({ state: "acquired", sent: true });
  });

  it("a run that stalled and lost its claim may neither answer nor mark the request answered", async () => {
    const claims = claimsFor(1_000);
    const stalled = await claims.claim(REF, ID);
    await sleep(1_100);
    const rescuer = await claims.claim(REF, ID);
    if (stalled.state !== "acquired" || rescuer.state !== "acquired") throw new Error("not acquired");
    expect(await claims.confirmSending(REF, ID, stalled.token)).toBe(false);
    await claims.finish(REF, ID, stalled.token);
    expect(await claims.confirmSending(REF, ID, rescuer.token)).toBe(true);
    await claims.finish(REF, ID, rescuer.token);
    expect(await claims.claim(REF, ID)).toEqual({ state: "done" });
  });

  it("a renewed lease outlasts its first term; a stale token cannot renew", async () => {
    // Renewed every 500 ms for 3 s: a term of 2 s would have ended without the renewals.
    const claims = claimsFor(2_000);
    const held = await claims.claim(REF, ID);
    if (held.state !== "acquired") throw new Error("not acquired");
    for (let i = 0; i < 6; i++) {
      await sleep(500);
      expect(await claims.renew(REF, ID, held.token)).toBe(true);
    }
    expect((await claims.claim(REF, ID)).state).toBe("busy");
    expect(await claims.renew(REF, ID, "not-the-token")).toBe(false);
  });

  it("an answer waits for a replica to hold the claim: unconfirmed, nothing may go out and the run's mark is taken back", async () => {
    const { claims, keys, decisive } = unconfirmedClaims();
    try {
      const c = await claims.claim(REF, ID);
      if (c.state !== "acquired") throw new Error("not acquired");
      await expect(claims.confirmSending(REF, ID, c.token)).rejects.toMatchObject({
        code: "redis_unconfirmed",
        message: expect.stringContaining("the request's claim"),
      });
      // The claim and the mark are taken back: the next run takes the request at once, without
      // waiting out the lease, and answers in full (nothing was on screen).
      const k = `${keys.namespace(REF)}:ireq:${ID}`;
      expect(await redis.exists(k, `${k}:sent`)).toBe(0);
      expect(await claims.claim(REF, ID)).toMatchObject({ state: "acquired", sent: false });
    } finally {
      decisive.disconnect();
    }
  });

  it("a run held back for want of a replica leaves an earlier run's mark: the run after it still only replaces", async () => {
    const { claims: unconfirmed, keys, decisive } = unconfirmedClaims();
    try {
      // The first run marked its answer as going out, answered, and died before finishing.
      const k = `${keys.namespace(REF)}:ireq:${ID}`;
      await redis.set(`${k}:sent`, "p|first-run", "PX", 60_000);
      const second = await unconfirmed.claim(REF, ID);
      expect(second).toMatchObject({ state: "acquired", sent: true });
      if (second.state !== "acquired") throw new Error("not acquired");
      await expect(unconfirmed.confirmSending(REF, ID, second.token)).rejects.toMatchObject({
        code: "redis_unconfirmed",
      });
      expect(await redis.get(`${k}:sent`)).toBe("p|first-run");
      expect(await unconfirmed.claim(REF, ID)).toMatchObject({ state: "acquired", sent: true });
    } finally {
      decisive.disconnect();
    }
  });

  it("the web's give-up closes a request nobody is answering, and yields to one whose answer may be out", async () => {
    const claims = claimsFor(60_000);
    // Nobody ran it yet: closed, and a run that comes later skips it.
    expect(await claims.giveUp(REF, "r-nobody")).toBe(true);
    expect(await claims.claim(REF, "r-nobody")).toEqual({ state: "done" });
    // Said again (an earlier try whose reply was lost, sent when Redis came back): still closed by it.
    expect(await claims.giveUp(REF, "r-nobody")).toBe(true);
    // A run holds it but has not marked an answer: closed, and the run may not answer.
    const held = await claims.claim(REF, "r-held");
    if (held.state !== "acquired") throw new Error("not acquired");
    expect(await claims.giveUp(REF, "r-held")).toBe(true);
    expect(await claims.confirmSending(REF, "r-held", held.token)).toBe(false);
    // A run's answer is going out: the web must not say it failed.
    const going = await claims.claim(REF, "r-going");
    if (going.state !== "acquired") throw new Error("not acquired");
    expect(await claims.confirmSending(REF, "r-going", going.token)).toBe(true);
    expect(await claims.giveUp(REF, "r-going")).toBe(false);
    await claims.finish(REF, "r-going", going.token);
    // Answered: neither.
    expect(await claims.giveUp(REF, "r-going")).toBe(false);
  });

  it("where nothing needs confirming (auto, no replica), an answer goes out at once", async () => {
    const decisive = redis.duplicate();
    const claims = createRequestClaims({
      redis: decisive,
      keys: createKeyScheme({ prefix: `t-iclaims-${randomUUID().slice(0, 8)}` }),
      confirmer: createWriteConfirmer({ redis: decisive, mode: "auto", logger: silentLogger() }),
    });
    try {
      const c = await claims.claim(REF, ID);
      if (c.state !== "acquired") throw new Error("not acquired");
      expect(await claims.confirmSending(REF, ID, c.token)).toBe(true);
    } finally {
      decisive.disconnect();
    }
  });

  it("refuses a request id that could escape its key", async () => {
    const claims = claimsFor();
    await expect(claims.claim(REF, "r1:*")).rejects.toMatchObject({ code: "bad_request" });
  });
});
