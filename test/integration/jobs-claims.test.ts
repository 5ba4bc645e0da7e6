import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createDeliveryClaims, reopenFailedClaim } from "../../src/jobs/claims.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { backends, useRedis } from "../setup/backends.ts";

const REF = { teamId: "T0CLAIMS1" };
const P = "20261102T080000Z";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends())("delivery claims ($name)", ({ url }) => {
  const redis = useRedis(url);

  const claimsFor = (leaseMs = 200) => {
    const keys = createKeyScheme({ prefix: `t-claims-${randomUUID().slice(0, 8)}` });
    return {
      claims: createDeliveryClaims({ redis, keys, leaseMs, doneTtlMs: 60_000 }),
      key: keys.deliveryClaims(REF, P),
    };
  };

  it("an operator's retry reopens only a failed claim, keeping a post that may be out noted", async () => {
    const keys = createKeyScheme({ prefix: `t-claims-${randomUUID().slice(0, 8)}` });
    const claims = createDeliveryClaims({ redis, keys, leaseMs: 5_000, doneTtlMs: 60_000 });
    const reopen = (sub: string, since: number | null) =>
      reopenFailedClaim({ redis, keys }, REF, sub, P, since);
    await claims.finish(REF, "fail0001", P, "failed", "msg_too_long");
    await claims.finish(REF, "fail0002", P, "failed", "stalled");
    await claims.finish(REF, "done0001", P, "delivered", "1700000000.000100");
    await claims.claim(REF, "held0001", P);
    expect(await reopen("fail0001", null)).toBe(true);
    expect(await claims.claim(REF, "fail0001", P)).toMatchObject({ state: "acquired", postingSince: null });
    // A run that stalled may have posted: the next run is told, so it looks in the channel first.
    expect(await reopen("fail0002", 1_700_000_000_000)).toBe(true);
    expect(await claims.claim(REF, "fail0002", P)).toMatchObject({
      state: "acquired",
      postingSince: 1_700_000_000_000,
    });
    expect(await reopen("done0001", null)).toBe(false);
    expect(await claims.claim(REF, "done0001", P)).toMatchObject({ state: "done", outcome: "delivered" });
    expect(await reopen("held0001", null)).toBe(false);
    expect((await claims.claim(REF, "held0001", P)).state).toBe("busy");
    // Forgotten (past the claims' memory): nothing stands in the way.
    expect(await reopen("none0001", null)).toBe(true);
  });

  it("one taker per period; the others learn how long to wait", async () => {
    const { claims } = claimsFor(5_000);
    const [a, b] = await Promise.all([claims.claim(REF, "abcd1234", P), claims.claim(REF, "abcd1234", P)]);
    expect([a.state, b.state].sort()).toEqual(["acquired", "busy"]);
    const busy = a.state === "busy" ? a : b;
    expect(busy.state === "busy" && busy.retryInMs).toBeGreaterThan(4_000);
    // Another period, or another subscription of the same period, is another claim.
    expect((await claims.claim(REF, "abcd1234", "20261109T080000Z")).state).toBe("acquired");
    expect((await claims.claim(REF, "efgh5678", P)).state).toBe("acquired");
  });

  it("a finished claim answers done with its outcome, to every later taker; the period's hash expires", async () => {
    const { claims, key } = claimsFor();
    const first = await claims.claim(REF, "abcd1234", P);
    expect(first).toMatchObject({ state: "acquired", postingSince: null });
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

  it("a post noted by confirm survives the holder's death and a release: the next taker learns when", async () => {
    const { claims } = claimsFor(150);
    const held = await claims.claim(REF, "abcd1234", P);
    if (held.state !== "acquired") throw new Error("unreachable");
    const before = Date.now();
    expect(await claims.confirm(REF, "abcd1234", P, held.token)).toBe(true);
    await sleep(200);
    const taken = await claims.claim(REF, "abcd1234", P);
    expect(taken.state).toBe("acquired");
    if (taken.state !== "acquired") throw new Error("unreachable");
    expect(taken.postingSince).toBeGreaterThanOrEqual(before - 1_000);
    // Released after a failure that may have posted: still noted.
    await claims.release(REF, "abcd1234", P, taken.token);
    const again = await claims.claim(REF, "abcd1234", P);
    expect(again).toMatchObject({ state: "acquired", postingSince: taken.postingSince });
    // Released after Slack refused the post outright: the note goes.
    if (again.state === "acquired") await claims.release(REF, "abcd1234", P, again.token, { posted: false });
    expect(await claims.claim(REF, "abcd1234", P)).toMatchObject({ state: "acquired", postingSince: null });
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
