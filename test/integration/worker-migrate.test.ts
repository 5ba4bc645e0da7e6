import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startWorker } from "../../src/app/worker.ts";
import { loadConfig, parseKeyring } from "../../src/config.ts";
import { createInstallationStore } from "../../src/install/store.ts";
import { createDeliveryClaims } from "../../src/jobs/claims.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import { quietRuntime } from "../fixtures/runtime.ts";
import { backends, connect, useRedis } from "../setup/backends.ts";

/** Redis data exactly as commit 39c693a wrote it (see test/fixtures/legacy/README.md). */
interface Fixture {
  keyring: string;
  subscriptions: Record<string, string>;
  keys: { key: string; type: string; pttl: number; value: unknown }[];
}
const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/legacy/redis-39c693a.json", import.meta.url), "utf8"),
) as Fixture;
const ids = Object.keys(fixture.subscriptions);
const [A, B, C] = ids as [string, string, string];
const SOLO = { teamId: "T0LEGACY1" };
const GRID = { enterpriseId: "E0LEGACY1", teamId: "T0LEGACY2" };
const ORG = { enterpriseId: "E0LEGACY2", isEnterpriseInstall: true };

/** Writes the fixture under a fresh store prefix and queue name, key by key (its keys span cluster slots). */
async function load(redis: RedisClient, prefix: string, queueName: string) {
  const rename = (k: string) =>
    k.startsWith("insights:")
      ? `${prefix}:${k.slice(9)}`
      : k.replace("{insights}:deliveries:", `{insights}:${queueName}:`);
  for (const { key, type, pttl, value } of fixture.keys) {
    const k = rename(key);
    if (type === "hash") await redis.hset(k, value as Record<string, string>);
    else if (type === "set") await redis.sadd(k, ...(value as string[]));
    else if (type === "list") await redis.rpush(k, ...(value as string[]));
    else if (type === "zset") {
      const flat = value as string[];
      for (let i = 0; i < flat.length; i += 2) await redis.zadd(k, flat[i + 1] as string, flat[i] as string);
    } else if (type === "string") {
      if (pttl > 0) await redis.set(k, value as string, "PX", Math.max(pttl, 60_000));
      else await redis.set(k, value as string);
    }
  }
}

/** Catch-up jobs the queue recorded as added, by id without the unique tail. */
async function catchUpsAdded(redis: RedisClient, events: string): Promise<string[]> {
  const added: string[] = [];
  for (const [, fields] of await redis.xrange(events, "-", "+")) {
    const f = new Map<string, string>();
    for (let i = 0; i < fields.length; i += 2) f.set(fields[i] as string, fields[i + 1] as string);
    const id = f.get("jobId") ?? "";
    if (f.get("event") === "added" && id.startsWith("catchup.")) added.push(id.replace(/\.[^.]+$/, ""));
  }
  return added.sort();
}

describe.each(backends())("start-up migration of data written by the previous version ($name)", ({ url }) => {
  const redis = useRedis(url);

  it("moves keys, records, claims and per-subscription schedulers into slots; a second start changes nothing", async () => {
    const prefix = `t-legacy-${randomUUID().slice(0, 8)}`;
    const queueName = `legacy-${randomUUID().slice(0, 8)}`;
    await load(redis, prefix, queueName);
    const keyring = parseKeyring(fixture.keyring);
    const config = loadConfig("worker", {
      REDIS_URL: url,
      ENCRYPTION_KEYS: fixture.keyring,
      ANALYTICS_GRAPHQL_URL: "http://127.0.0.1:9/analytics/graphql",
      SLACK_BOT_TOKEN: "xoxb-legacy-solo",
      LOG_LEVEL: "silent",
    });
    const rt = quietRuntime(redis, { prefix, queueName });
    const legacySchedulers = await rt.queue.getJobSchedulers();
    expect(legacySchedulers.map((s) => s.key).sort()).toHaveLength(4);
    // The worker starts at a fixed instant between the fixture's runs, whatever today is: the two
    // daily runs of 2026-11-24 (03:30 and 07:30 UTC) fell due while no worker ran; the weekly ones of
    // the 26th and 27th did not.
    const now = new Date("2026-11-24T12:00:00Z");
    const due = legacySchedulers
      .filter((s) => (s.next ?? 0) <= now.getTime())
      .map((s) => `catchup.${s.key}.${periodOf(s.next as number)}`)
      .sort();
    expect(due).toEqual([
      "catchup.-.T0LEGACY1.hh2gkyb0.20261124T073000Z",
      "catchup.E0LEGACY1.T0LEGACY2.wiz4miwf.20261124T033000Z",
    ]);
    const start = async () => {
      const w = await startWorker({
        config,
        logger: silentLogger(),
        redis: connect(url),
        prefix,
        queueName,
        healthPort: null,
        clock: () => now,
      });
      await w.close();
    };
    await start();

    // Secrets read with the new scheme, under the same keyring (AAD binds workspace and purpose, not key names).
    const apiKeys = createApiKeyStore({ redis, keyring, prefix });
    expect((await apiKeys.load(SOLO))?.apiKey).toBe("pk-solo");
    expect((await apiKeys.load(GRID))?.apiKey).toBe("pk-grid");
    expect((await apiKeys.load(ORG))?.apiKey).toBe("pk-org");
    const installs = createInstallationStore({ redis, keyring, prefix });
    expect((await installs.read(SOLO))?.installation.bot?.token).toBe("xoxb-legacy-solo");

    // Records, with their outcome, pause and filters; nothing left in the old scheme.
    const solo = await rt.subscriptions.list(SOLO);
    expect(solo.map((s) => s.id).sort()).toEqual([A, B, C].sort());
    const a = solo.find((s) => s.id === A);
    expect(a?.lastDelivery).toMatchObject({
      period: "20261119T080000Z",
      outcome: "delivered",
      messageTs: "1763539202.000100",
    });
    expect(solo.find((s) => s.id === C)).toMatchObject({
      status: "paused",
      assetIds: ["a1b2c3d4-0000-4000-8000-000000000001"],
    });
    expect(await rt.subscriptions.list(GRID)).toHaveLength(1);
    expect(await rt.subscriptions.list(ORG)).toHaveLength(1);
    const old: string[] = [];
    for await (const page of scanKeys(redis, `${prefix}:ws:*`)) old.push(...page);
    expect(old).toEqual([]);

    // The delivered period stays delivered: a repeat of it will not post again.
    const claims = createDeliveryClaims({ redis, keys: createKeyScheme({ prefix }) });
    expect(await claims.claim(SOLO, A, "20261119T080000Z")).toMatchObject({
      state: "done",
      outcome: "delivered",
    });

    // One scheduler per slot of the active subscriptions, none per subscription.
    const active = [
      ...solo,
      ...(await rt.subscriptions.list(GRID)),
      ...(await rt.subscriptions.list(ORG)),
    ].filter((s) => s.status === "active");
    const slots = [...new Set(active.map((s) => slotSchedulerId(slotOf(s)?.id ?? "")))].sort();
    expect(slots).toHaveLength(4);
    const after = (await rt.queue.getJobSchedulers()).map((s) => s.key).sort();
    expect(after).toEqual(slots);
    // Runs that fell due while no worker ran became catch-ups, one each. Counted from the queue's
    // event stream: the started worker may already have run (and removed) one before this reads.
    expect(await catchUpsAdded(redis, rt.queue.keys.events)).toEqual(due);

    // Idempotent: a second start finds nothing to move or heal.
    const before = (await rt.queue.getJobSchedulers()).map((s) => [s.key, s.next]);
    await start();
    expect(await rt.subscriptions.reconcile()).toMatchObject({
      membersHealed: 0,
      schedulersEnsured: 0,
      legacyMigrated: 0,
    });
    expect((await rt.queue.getJobSchedulers()).map((s) => [s.key, s.next])).toEqual(before);
    await rt.close();
  });
});
