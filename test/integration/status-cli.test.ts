import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDeliveryLog } from "../../src/jobs/delivery-log.ts";
import { createSubscriptionRuntime, type SubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { silentLogger } from "../../src/log.ts";
import type { OpsSummary } from "../../src/ops/summary.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { storedSubscription } from "../fixtures/subscription.ts";
import { connect } from "../setup/backends.ts";
import { ROOT, cli as runCli } from "./cli-run.ts";

const prefix = `t-status-${randomUUID().slice(0, 8)}`;
const queueName = `deliveries-${randomUUID().slice(0, 8)}`;
const REF = { teamId: "T0STATUS1" };
let redis: RedisClient;
let runtime: SubscriptionRuntime;
let failing: Subscription;
// A run scheduled two minutes ago: its verdicts are the last slot and land in the last 24 h.
const period = periodOf(Math.floor(Date.now() / 60_000) * 60_000 - 120_000);

const cli = (args: string[]) =>
  runCli(["status", "--prefix", prefix, "--queue", queueName, ...args], {
    cwd: ROOT,
    env: { REDIS_URL: inject("redisUrl"), LOG_LEVEL: "warn" },
  });

beforeAll(async () => {
  redis = connect(inject("redisUrl"), "client");
  runtime = createSubscriptionRuntime({
    redis,
    queuePrefix: "{insights}",
    logger: silentLogger(),
    prefix,
    queueName,
  });
  const base = { ref: REF, ownerId: "U0ADMIN", schedule: { kind: "daily" as const } };
  failing = storedSubscription({
    ...base,
    id: "fail0001",
    channelId: "C0GONE",
    status: "paused",
    pausedReason: "channel_not_found",
    lastDelivery: { period, at: new Date().toISOString(), outcome: "failed", reason: "channel_not_found" },
  });
  const fine = storedSubscription({
    ...base,
    id: "fine0001",
    channelId: "C0FINE",
    lastDelivery: { period, at: new Date().toISOString(), outcome: "delivered", messageTs: "1.2" },
  });
  await runtime.store.insert(failing);
  await runtime.store.insert(fine);
  const log = createDeliveryLog({ redis, keys: createKeyScheme({ prefix }) });
  await log.note(failing, failing.lastDelivery as never);
  await log.note(fine, fine.lastDelivery as never);
  await runtime.queue.add("digest", { sub: "-.T0STATUS1.fine0001", period }, { jobId: "waiting-1" });
});
afterAll(async () => {
  await runtime?.close();
  await redis?.quit();
});

describe("insights-digest status", () => {
  it("prints the queue, the last slot and the day per workspace, and the failures", async () => {
    const r = await cli([]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("waiting 1, prioritized 0, active 0, delayed 0, failed 0");
    expect(r.stdout).toMatch(/Last slot: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(r.stdout).toMatch(/-\.T0STATUS1\s+1\s+0\s+0\s+1\s+channel_not_found 1/);
    expect(r.stdout).toContain("fail0001");
  });

  it("--json gives the same summary to scripts", async () => {
    const r = await cli(["--json"]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as OpsSummary;
    expect(s.lastSlot?.period).toBe(period);
    expect(s.day.workspaces).toEqual([
      { workspace: "-.T0STATUS1", delivered: 1, late: 0, skipped: {}, failed: { channel_not_found: 1 } },
    ]);
    expect(s.queue.counts.waiting).toBe(1);
    expect(s.failures).toEqual([expect.objectContaining({ subId: "fail0001", reason: "channel_not_found" })]);
  });

  it("--workspace shows its subscriptions, why one failed and what a retry would do", async () => {
    const r = await cli(["--workspace", "T0STATUS1"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Workspace -.T0STATUS1");
    expect(r.stdout).toContain("fail0001  digest  C0GONE  Daily at 09:00 UTC  paused (channel_not_found)");
    expect(r.stdout).toContain("why: the channel no longer exists");
    expect(r.stdout).toContain("retry: resume it (from /ops)");
    expect(r.stdout).toMatch(/fine0001 .* active\n\s+last: delivered/);
    const json = JSON.parse((await cli(["--workspace", "T0STATUS1", "--json"])).stdout);
    expect(json.subscriptions.map((s: { id: string }) => s.id)).toEqual(["fail0001", "fine0001"]);
  });

  it("a bad workspace or option is a one-line usage error", async () => {
    const bad = await cli(["--workspace", "not a team"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("is not a team id");
    const typo = await cli(["--jsn"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('Did you mean "--json"?');
  });
});
