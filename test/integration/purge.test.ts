import { randomBytes, randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import { createInstallationStore, purgeWorkspace, type RemoveSchedulers } from "../../src/install/index.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { generateKeyring } from "../../src/store/crypto.ts";
import { createKeyScheme, type KeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import { backends, connect, useRedis } from "../setup/backends.ts";
import { dumpRedis, naming } from "../setup/redis-dump.ts";

const keyring = generateKeyring();
/** Ids unique to this run, so a scan of the shared test Redis can only find our own keys. */
const uid = (head: string) => `${head}${randomBytes(4).toString("hex").toUpperCase()}`;

describe.each(backends())("purgeWorkspace ($name)", ({ url }) => {
  const queues: Queue[] = [];
  const redis = useRedis(url, () => Promise.all(queues.map((q) => q.close())));

  const dump = () => dumpRedis(redis);

  /**
   * A world with data of every kind per workspace, plus one BullMQ queue whose schedulers the
   * engine's hook removes by reading the subscription index (as the subscriptions engine will).
   */
  async function world() {
    const prefix = `t-purge-${randomUUID().slice(0, 8)}`;
    const keys = createKeyScheme({ prefix });
    // A hash-tagged prefix, as BullMQ needs on a cluster.
    const queue = new Queue("digests", { connection: connect(url), prefix: `{${prefix}-bull}` });
    queues.push(queue);
    const installs = createInstallationStore({ redis, keyring, prefix });
    const apiKeys = createApiKeyStore({ redis, keyring, prefix });

    async function seed(ref: WorkspaceRef, o: { installed?: boolean } = {}) {
      const label = ref.teamId ?? ref.enterpriseId ?? "";
      if (o.installed !== false) {
        await installs.storeInstallation({
          team: ref.isEnterpriseInstall ? undefined : { id: ref.teamId as string },
          enterprise: ref.enterpriseId ? { id: ref.enterpriseId } : undefined,
          user: { id: "U0INSTALL", token: undefined, scopes: undefined },
          bot: { id: "B0BOT0001", userId: "U0BOT0001", token: `xoxb-${label}`, scopes: ["commands"] },
          isEnterpriseInstall: Boolean(ref.isEnterpriseInstall),
          authVersion: "v2",
        });
      }
      await apiKeys.save(ref, `pk-${label}`, { savedBy: "U0INSTALL", savedAt: "2026-11-02T09:00:00.000Z" });
      const sub = randomUUID().replaceAll("-", "");
      await redis.hset(keys.subscription(ref, sub), { channel: "C0GENERAL", cron: "0 9 * * 1", team: label });
      await redis.hset(keys.subscriptionIndex(ref), sub, "C0GENERAL");
      await redis.hset(keys.slotMembers(ref, "slot0001"), sub, "C0GENERAL");
      await redis.hset(keys.deliveryClaims(ref, "20261102T080000Z"), sub, "d|1.2");
      await redis.set(
        keys.insightsCache(ref, "abc123"),
        JSON.stringify({ ok: true, team: label }),
        "PX",
        60_000,
      );
      await redis.set(keys.user(ref, "U0MEMBER1"), JSON.stringify({ id: "U0MEMBER1", team: label }));
      await queue.upsertJobScheduler(
        `sub-${sub}`,
        { pattern: "0 9 * * 1", tz: "Europe/Berlin" },
        { name: "digest", data: { enterpriseId: ref.enterpriseId ?? null, teamId: ref.teamId ?? null, sub } },
      );
    }

    const calls: WorkspaceRef[] = [];
    const removeSchedulers: RemoveSchedulers = async (ref) => {
      calls.push(ref);
      for (const sub of await redis.hkeys(keys.subscriptionIndex(ref)))
        await queue.removeJobScheduler(`sub-${sub}`);
    };
    const schedulerTeams = async () =>
      (await queue.getJobSchedulers()).map(
        (s) => (s.template?.data as { teamId: string | null } | undefined)?.teamId,
      );
    return { prefix, keys, queue, seed, calls, removeSchedulers, schedulerTeams, installs };
  }

  const purge = (keys: KeyScheme, ref: WorkspaceRef, removeSchedulers?: RemoveSchedulers) =>
    purgeWorkspace({ redis, keys, ref, removeSchedulers });

  it("leaves no key or value naming the workspace, and the others intact", async () => {
    const w = await world();
    const alpha = { teamId: uid("T0A") };
    const bravo = { enterpriseId: uid("E0B"), teamId: uid("T0B") };
    const org = { enterpriseId: uid("E0O"), isEnterpriseInstall: true };
    for (const ref of [alpha, bravo, org]) await w.seed(ref);
    const before = await dump();
    const others = naming(before, bravo.teamId, org.enterpriseId).map((l) => l.split(" ")[0]);
    expect(naming(before, alpha.teamId).length).toBeGreaterThan(8);

    const result = await purge(w.keys, alpha, w.removeSchedulers);

    const after = await dump();
    console.log(
      [
        `Redis keys naming ${alpha.teamId} before the purge:`,
        ...naming(before, alpha.teamId).map((l) => `  ${l.split(" ")[0]}`),
        `after (${result.deleted} deleted): ${naming(after, alpha.teamId).length} keys or values name it`,
      ].join("\n"),
    );
    expect(naming(after, alpha.teamId)).toEqual([]);
    expect(w.calls).toEqual([alpha]);
    expect(await w.schedulerTeams()).not.toContain(alpha.teamId);
    expect((await w.schedulerTeams()).sort()).toEqual([bravo.teamId, null].sort());
    // Everything of the other two is still there.
    const afterKeys = new Set(after.map((l) => l.split(" ")[0]));
    for (const key of others) expect(afterKeys.has(key)).toBe(true);
    expect((await w.installs.fetchInstallation({ ...bravo, isEnterpriseInstall: false })).bot?.token).toBe(
      `xoxb-${bravo.teamId}`,
    );
  });

  it("is idempotent, and two purges at once both succeed", async () => {
    const w = await world();
    const alpha = { teamId: uid("T0A") };
    await w.seed(alpha);
    const keyCount = (await dump()).filter((l) => l.startsWith(w.keys.namespace(alpha))).length;
    const [one, two] = await Promise.all([
      purge(w.keys, alpha, w.removeSchedulers),
      purge(w.keys, alpha, w.removeSchedulers),
    ]);
    expect(one.deleted + two.deleted).toBe(keyCount);
    expect(naming(await dump(), alpha.teamId)).toEqual([]);
    expect(await purge(w.keys, alpha, w.removeSchedulers)).toEqual({ deleted: 0, spared: 0 });
    expect(await w.schedulerTeams()).toEqual([]);
  });

  it("purges an org-wide install across the enterprise, sparing teams installed on their own", async () => {
    const w = await world();
    const enterpriseId = uid("E0G");
    const org = { enterpriseId, isEnterpriseInstall: true };
    const stray = { enterpriseId, teamId: uid("T0S") }; // data of an org workspace, no install of its own
    const own = { enterpriseId, teamId: uid("T0W") }; // a team that installed the app itself
    await w.seed(org);
    await w.seed(stray, { installed: false });
    await w.seed(own);
    const ownKeys = naming(await dump(), own.teamId).length;
    const ownNamespaced = (await dump()).filter((l) => l.startsWith(w.keys.namespace(own))).length;

    const result = await purge(w.keys, org, w.removeSchedulers);

    const after = await dump();
    expect(naming(after, stray.teamId)).toEqual([]);
    expect(after.filter((l) => l.startsWith(w.keys.namespace(org)))).toEqual([]);
    expect(naming(after, own.teamId).length).toBe(ownKeys);
    expect(result.spared).toBe(ownNamespaced);
    expect(await w.schedulerTeams()).toEqual([own.teamId]);
  });

  it("purges the data even when removing schedulers fails, and says so", async () => {
    const w = await world();
    const alpha = { teamId: uid("T0A") };
    await w.seed(alpha);
    const failing: RemoveSchedulers = async () => {
      throw new Error("queue unreachable");
    };
    await expect(purge(w.keys, alpha, failing)).rejects.toMatchObject({ code: "purge_incomplete" });
    expect((await dump()).filter((l) => l.startsWith(w.keys.namespace(alpha)))).toEqual([]);
    // The engine's scheduler survived the failed hook; a retry with a working hook cannot find it by
    // the (now deleted) index, which is why the hook runs before the scan. It names the team still.
    expect(await w.schedulerTeams()).toEqual([alpha.teamId]);
  });
});
