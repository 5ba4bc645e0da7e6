import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startPrivateRedis } from "../../sandbox/redis.ts";
import { type PrivateRedisSentinel, startPrivateRedisSentinel } from "../../sandbox/redis-sentinel.ts";
import { createInstallationStore } from "../../src/install/store.ts";
import { createAlertState } from "../../src/jobs/alert-state.ts";
import { createSubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { checkRecords, dumpRecords, writeRecords } from "../../src/store/backup.ts";
import { BACKUP_VERSION, backupWriter, parseBackup } from "../../src/store/backup-format.ts";
import { MAX_LINE } from "../../src/store/backup-lines.ts";
import { formatKeyring, generateKeyring } from "../../src/store/crypto.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { createWorkspaceSettings } from "../../src/store/workspace-settings.ts";
import { connect } from "../setup/backends.ts";
import { ROOT, cli as runCli } from "./cli-run.ts";

/**
 * `insights-digest backup > file` and `restore < file`, run as a user runs them, moving a deployment
 * from one Redis to another of another shape: single node → cluster → Sentinel → single node.
 */
let sentinel: PrivateRedisSentinel;
beforeAll(async () => {
  sentinel = await startPrivateRedisSentinel();
}, 60_000);
afterAll(async () => sentinel?.destroy());

const keyring = generateKeyring(2);
const ENCRYPTION_KEYS = formatKeyring(keyring);
// A queue prefix per Redis and test, so one test's schedulers never count in another's.
const queuePrefix = () => `{bk-${randomUUID().slice(0, 8)}}`;
const T1: WorkspaceRef = { teamId: "T0BACKUP1" };
const T2: WorkspaceRef = { enterpriseId: "E0BACKUP1", teamId: "T0BACKUP2" };
const ORG: WorkspaceRef = { enterpriseId: "E0BACKUP9", isEnterpriseInstall: true };

/** Runs the CLI with `stdin`, as `insights-digest <args> < file` would, from the repository. */
const cli = (args: string[], env: Record<string, string>, stdin = "") =>
  runCli(args, { env, stdin, cwd: ROOT, hangMs: 60_000 });

/** The episode the seeded alert fired in, and who voted on it. */
const EPISODE = "20261102T080000Z";
const VOTER = "U0VOTER01";

/**
 * A deployment's worth of records under `prefix`: installations, API keys, subscriptions with run
 * state, a workspace's chart setting, an alert's kept message and a vote on it.
 */
async function seed(redis: RedisClient, prefix: string, QUEUE_PREFIX: string) {
  const apiKeys = createApiKeyStore({ redis, keyring, prefix });
  const installs = createInstallationStore({ redis, keyring, prefix });
  const runtime = createSubscriptionRuntime({
    redis,
    queuePrefix: QUEUE_PREFIX,
    logger: silentLogger(),
    prefix,
  });
  const alerts = createAlertState({ redis, keys: createKeyScheme({ prefix }) });
  for (const ref of [T1, T2, ORG]) {
    const label = ref.teamId ?? ref.enterpriseId;
    await installs.storeInstallation({
      team: ref.isEnterpriseInstall ? undefined : { id: ref.teamId as string },
      enterprise: ref.enterpriseId ? { id: ref.enterpriseId } : undefined,
      user: { id: "U0INSTALL", token: undefined, scopes: undefined },
      bot: { id: "B0BOT0001", userId: "U0BOT0001", token: `xoxb-${label}-secret`, scopes: ["commands"] },
      isEnterpriseInstall: Boolean(ref.isEnterpriseInstall),
      authVersion: "v2",
    });
    await apiKeys.save(ref, `pk-${label}-secret`, {
      savedBy: "U0INSTALL",
      savedAt: "2026-11-02T09:00:00.000Z",
    });
  }
  const { subscriptions, store } = runtime;
  const owner = "U0INSTALL";
  const a = await subscriptions.create(
    T1,
    { channelId: "C0GENERAL", schedule: { kind: "daily" }, tz: "UTC" },
    owner,
  );
  const b = await subscriptions.create(
    T1,
    // An alert on the fix rate: its condition is the record's text, read back as it was stored.
    {
      channelId: "C0SECURITY",
      schedule: { kind: "weekly", days: ["mon", "thu"] },
      tz: "Europe/Berlin",
      mode: "alert",
      condition: "when fix rate below 60%",
    },
    owner,
  );
  const c = await subscriptions.create(
    T2,
    { channelId: "C0GENERAL", schedule: { kind: "daily" }, tz: "UTC" },
    owner,
  );
  await subscriptions.pause(T2, c.subscription.id);
  // Run state: the last delivery, and an alert that fired.
  await store.recordLast(T1, a.subscription.id, {
    period: "20261102T090000Z",
    at: "2026-11-02T09:00:03.000Z",
    outcome: "delivered",
    messageTs: "1793610003.000100",
  });
  expect(
    await alerts.step(T1, b.subscription.id, {
      period: "20261102T080000Z",
      read: "",
      state: "f",
      pending: "",
    }),
  ).toBe("applied");
  // The alert's episode as its post records it, the message later states redraw, and a vote.
  const keys = createKeyScheme({ prefix });
  await redis.hset(keys.subscription(T1, b.subscription.id), "ep", EPISODE);
  await alerts.saveBody(T1, b.subscription.id, {
    ep: EPISODE,
    channel: "C0SECURITY",
    head: [{ type: "section", text: { type: "mrkdwn", text: "Violations are unusual" } }],
    text: "Violations are unusual",
  });
  expect(await alerts.feedback(T1, b.subscription.id, { ep: EPISODE, user: VOTER, useful: true })).toEqual({
    changed: true,
    useful: 1,
    notUseful: 0,
  });
  await createWorkspaceSettings({ redis, keys }).setChart(T2, "png");
  await runtime.close();
}

/** Everything a restore must bring back, read through the app's own stores (secrets opened). */
async function view(redis: RedisClient, prefix: string, QUEUE_PREFIX: string) {
  const apiKeys = createApiKeyStore({ redis, keyring, prefix });
  const installs = createInstallationStore({ redis, keyring, prefix });
  const runtime = createSubscriptionRuntime({
    redis,
    queuePrefix: QUEUE_PREFIX,
    logger: silentLogger(),
    prefix,
  });
  const out: Record<string, unknown> = {};
  for (const ref of [T1, T2, ORG]) {
    const label = ref.teamId ?? ref.enterpriseId ?? "";
    out[`${label}/apikey`] = (await apiKeys.load(ref))?.apiKey;
    out[`${label}/bot`] = (await installs.read(ref))?.installation.bot?.token;
    out[`${label}/subs`] = await runtime.store.list(ref);
  }
  const raw = await redis.hgetall(
    createKeyScheme({ prefix }).subscription(T1, (out["T0BACKUP1/subs"] as { id: string }[])[1]?.id ?? "x"),
  );
  out.alert = { as: raw.as, ap: raw.ap };
  const keys = createKeyScheme({ prefix });
  const alerts = createAlertState({ redis, keys });
  const alertId = (out["T0BACKUP1/subs"] as { id: string }[])[1]?.id ?? "x";
  out.alertMessage = (await alerts.body(T1, alertId, EPISODE))?.text;
  out.chart = (await createWorkspaceSettings({ redis, keys }).get(T2)).chart;
  // Kept records keep their lifetime (to the minute; compared with the source's) rather than living for ever.
  out.messageTtlMinutes = Math.round((await redis.pttl(keys.alertMessage(T1, alertId))) / 60_000);
  await runtime.close();
  return out;
}

const schedulers = async (url: string, QUEUE_PREFIX: string) => {
  const queue = new Queue("deliveries", { connection: connect(url, "client"), prefix: QUEUE_PREFIX });
  try {
    return (await queue.getJobSchedulers()).map((s) => s.key).sort();
  } finally {
    await queue.close();
  }
};

describe("backup and restore across Redis shapes", () => {
  const shapes = () => ({
    single: inject("redisUrl"),
    cluster: inject("redisClusterUrl"),
    sentinel: sentinel.url,
  });

  it.each([
    ["single", "cluster"],
    ["cluster", "sentinel"],
    ["sentinel", "single"],
  ] as const)(
    "%s → %s: everything back, secrets still sealed, restoring twice changes nothing",
    {
      timeout: 120_000,
    },
    async (from, to) => {
      const source = shapes()[from];
      const target = shapes()[to];
      const [srcPrefix, dstPrefix] = [
        `bk-src-${randomUUID().slice(0, 8)}`,
        `bk-dst-${randomUUID().slice(0, 8)}`,
      ];
      const src = connect(source, "client");
      const dst = connect(target, "client");
      const [from_, to_] = [queuePrefix(), queuePrefix()];
      try {
        await seed(src, srcPrefix, from_);
        const backup = await cli(["backup", "--prefix", srcPrefix], { REDIS_URL: source });
        expect(backup.stderr).toMatch(
          /^backup: 3 installation, 3 apikey, 3 sub, 2 idx, 2 slot, 1 settings, 1 alertmsg, 1 alertfb, 2 slot-workspaces from /,
        );
        expect(backup.code).toBe(0);
        const file = backup.stdout;
        const lines = file.trim().split("\n");
        expect(JSON.parse(lines[0] as string)).toMatchObject({
          format: "insights-digest-backup",
          version: BACKUP_VERSION,
        });
        // Sealed as stored: no API key or bot token in the clear.
        expect(file).not.toMatch(/pk-T0BACKUP|xoxb-/);
        expect(file).toContain('"enc:api_key":"v1.k2.');

        const env = { REDIS_URL: target, ENCRYPTION_KEYS, QUEUE_PREFIX: to_ };
        const first = await cli(["restore", "--prefix", dstPrefix], env, file);
        // Told where to write, it writes there, and says the app reads another prefix.
        expect(first.stderr).toBe(
          `restore: note: web and worker read the key prefix "insights", not "${dstPrefix}": they will not see what this restored.\n`,
        );
        expect(first.code).toBe(0);
        expect(first.stdout).toMatch(
          /^restore: 3 installation, 3 apikey, 3 sub, 2 idx, 2 slot, 1 settings, 1 alertmsg, 1 alertfb, 2 slot-workspaces into .* \(prefix "bk-dst-\w+", backup of prefix "bk-src-\w+", 20\d\d-.*\); 2 time slots, 2 schedulers made\n$/,
        );
        const restored = await view(dst, dstPrefix, to_);
        expect(restored).toEqual(await view(src, srcPrefix, from_));
        expect(restored).toMatchObject({
          "T0BACKUP1/apikey": "pk-T0BACKUP1-secret",
          "E0BACKUP9/bot": "xoxb-E0BACKUP9-secret",
        });
        expect(restored.alert).toEqual({ as: "f", ap: "20261102T080000Z" });
        expect((restored["T0BACKUP1/subs"] as { mode?: string; condition?: string }[])[1]).toMatchObject({
          mode: "alert",
          condition: "when fixrate < 60%",
        });
        expect(restored).toMatchObject({
          alertMessage: "Violations are unusual",
          chart: "png",
        });
        expect(await schedulers(target, to_)).toEqual(await schedulers(source, from_));
        expect(await schedulers(target, to_)).toHaveLength(2);

        // Idempotent: the same file again, and a backup of the target, hold the same records.
        const again = await cli(["restore", "--prefix", dstPrefix], env, file);
        expect(again.code).toBe(0);
        expect(again.stdout).toMatch(
          /^restore: nothing into .*, 18 already there; 2 time slots, 0 schedulers made\n$/,
        );
        expect(await view(dst, dstPrefix, to_)).toEqual(restored);
        const records = (f: string) => f.trim().split("\n").slice(1);
        const roundTrip = await cli(["backup", "--prefix", dstPrefix], { REDIS_URL: target });
        expect(records(roundTrip.stdout)).toEqual(records(file));
        // The same vote again changes nothing when the vote record came back (else it counts twice).
        const alertId = (restored["T0BACKUP1/subs"] as { id: string }[])[1]?.id ?? "x";
        const alerts = createAlertState({ redis: dst, keys: createKeyScheme({ prefix: dstPrefix }) });
        expect(await alerts.feedback(T1, alertId, { ep: EPISODE, user: VOTER, useful: true })).toEqual({
          changed: false,
          useful: 1,
          notUseful: 0,
        });
      } finally {
        await src.quit();
        await dst.quit();
      }
    },
  );

  it("refuses a newer format, a file cut short or changed, and a keyring that cannot open its secrets, writing nothing", {
    timeout: 120_000,
  }, async () => {
    const url = inject("redisUrl");
    const srcPrefix = `bk-src-${randomUUID().slice(0, 8)}`;
    const dstPrefix = `bk-dst-${randomUUID().slice(0, 8)}`;
    const redis = connect(url, "client");
    try {
      await seed(redis, srcPrefix, queuePrefix());
      const file = (await cli(["backup", "--prefix", srcPrefix], { REDIS_URL: url })).stdout;
      const [head, ...rest] = file.trim().split("\n");
      const newer = [
        JSON.stringify({ ...JSON.parse(head as string), version: BACKUP_VERSION + 1, app: "9.0.0" }),
        ...rest,
      ].join("\n");
      const cut = file.trim().split("\n").slice(0, -2).join("\n");
      const changed = file.replace('"tz":"UTC"', '"tz":"Etc/UTC"');
      const cases: [string, Record<string, string>, string][] = [
        [
          newer,
          { ENCRYPTION_KEYS },
          `This backup is format ${BACKUP_VERSION + 1}, written by a newer insights-digest (9.0.0)`,
        ],
        [cut, { ENCRYPTION_KEYS }, "it has no trailer line (the file was cut short?)"],
        [changed, { ENCRYPTION_KEYS }, "do not match the trailer's count and checksum"],
        [
          file,
          { ENCRYPTION_KEYS: formatKeyring(generateKeyring(2)) },
          "holds a secret that ENCRYPTION_KEYS cannot open",
        ],
        ["", { ENCRYPTION_KEYS }, "the input is empty"],
      ];
      for (const [input, env, message] of cases) {
        const r = await cli(["restore", "--prefix", dstPrefix], { REDIS_URL: url, ...env }, input);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/^insights-digest: [^\n]+\n$/);
        expect(r.stderr).toContain(message);
        expect(r.stderr).not.toMatch(/pk-T0BACKUP|xoxb-/);
      }
      const left = await cli(["backup", "--prefix", dstPrefix], { REDIS_URL: url });
      expect(left.stderr).toContain("backup: nothing");
    } finally {
      await redis.quit();
    }
  });

  it("a time slot of 40,000 workspaces goes out and back, on lines the reader takes", {
    timeout: 120_000,
  }, async () => {
    const redis = connect(inject("redisUrl"), "client");
    const [src, dst] = [
      createKeyScheme({ prefix: `bk-src-${randomUUID().slice(0, 8)}` }),
      createKeyScheme({ prefix: `bk-dst-${randomUUID().slice(0, 8)}` }),
    ];
    const labels = Array.from(
      { length: 40_000 },
      (_, i) => `E${String(i).padStart(10, "0")}.T${String(i).padStart(10, "0")}`,
    );
    try {
      for (let i = 0; i < labels.length; i += 5_000)
        await redis.sadd(src.slotWorkspaces("mon0900utc"), ...labels.slice(i, i + 5_000));
      const writer = backupWriter({ createdAt: "2026-12-06T09:00:00.000Z", prefix: src.prefix, app: "test" });
      const lines = [writer.header()];
      for await (const record of dumpRecords(redis, src)) lines.push(...writer.record(record));
      lines.push(writer.trailer());
      expect(lines.length).toBeGreaterThan(3);
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(MAX_LINE);

      const { records } = parseBackup(lines.join("\n"));
      const counts = await writeRecords(redis, checkRecords(records, { keys: dst, keyring }));
      expect(counts["slot-workspaces"]).toBe(1);
      const restored = await redis.smembers(dst.slotWorkspaces("mon0900utc"));
      expect(restored.sort()).toEqual([...labels].sort());
    } finally {
      await redis.del(src.slotWorkspaces("mon0900utc"), dst.slotWorkspaces("mon0900utc"));
      await redis.quit();
    }
  });

  it("restores under the prefix the file names, refuses one the app does not read unless told, and reads CRLF files", {
    timeout: 120_000,
  }, async () => {
    // A Redis of its own: this test writes under the app's real prefix, "insights".
    const own = await startPrivateRedis();
    const redis = connect(own.url, "client");
    const q = queuePrefix();
    try {
      await seed(redis, "insights", q);
      const before = await view(redis, "insights", q);
      const backup = await cli(["backup"], { REDIS_URL: own.url });
      expect(backup.code).toBe(0);
      const file = backup.stdout;
      expect(JSON.parse(file.split("\n")[0] as string)).toMatchObject({ prefix: "insights" });

      // Taken under a prefix the app does not read: refused, naming both ways out; nothing written.
      const elsewhere = `bk-other-${randomUUID().slice(0, 8)}`;
      const other = await cli(["backup", "--prefix", elsewhere], { REDIS_URL: own.url });
      const moved = other.stdout.replace('"prefix":"insights"', `"prefix":"${elsewhere}"`);
      await redis.flushall();
      const refused = await cli(["restore"], { REDIS_URL: own.url, ENCRYPTION_KEYS, QUEUE_PREFIX: q }, moved);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `insights-digest: Nothing was restored: this backup was taken under the key prefix "${elsewhere}", but web and worker read "insights". Pass --prefix insights to restore it where the app reads it, or --prefix ${elsewhere} to restore it as it was.\n`,
      );
      expect(await redis.dbsize()).toBe(0);

      // The file as a Windows editor saves it: CRLF line ends, read as the file it is, into its prefix.
      const crlf = file.replace(/\n/g, "\r\n");
      const restored = await cli(["restore"], { REDIS_URL: own.url, ENCRYPTION_KEYS, QUEUE_PREFIX: q }, crlf);
      expect(restored.stderr).toBe("");
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/ \(prefix "insights", backup of 20\d\d-/);
      expect(await view(redis, "insights", q)).toEqual(before);
    } finally {
      await redis.quit();
      await own.destroy();
    }
  });

  it("refuses to restore over records the file did not come from, saying what would change; --replace makes the prefix equal to the file", {
    timeout: 120_000,
  }, async () => {
    const url = inject("redisUrl");
    const [srcPrefix, dstPrefix] = [
      `bk-src-${randomUUID().slice(0, 8)}`,
      `bk-dst-${randomUUID().slice(0, 8)}`,
    ];
    const [srcQueue, dstQueue] = [queuePrefix(), queuePrefix()];
    const redis = connect(url, "client");
    const env = { REDIS_URL: url, ENCRYPTION_KEYS, QUEUE_PREFIX: dstQueue };
    const runtime = createSubscriptionRuntime({
      redis,
      queuePrefix: dstQueue,
      logger: silentLogger(),
      prefix: dstPrefix,
    });
    try {
      await seed(redis, srcPrefix, srcQueue);
      const file = (await cli(["backup", "--prefix", srcPrefix], { REDIS_URL: url })).stdout;
      expect((await cli(["restore", "--prefix", dstPrefix], env, file)).code).toBe(0);

      // The target lives on after the backup: a subscription added (in a time slot of its own), one
      // paused (the only member of its slot, which empties), and a workspace's chart setting changed.
      const { subscriptions } = runtime;
      const [, second] = await runtime.store.list(T1);
      await subscriptions.create(
        T1,
        {
          channelId: "C0LATER",
          schedule: { kind: "weekly", days: ["fri"] },
          time: "17:00",
          tz: "Asia/Tokyo",
        },
        "U0INSTALL",
      );
      await subscriptions.pause(T1, second?.id ?? "x");
      await createWorkspaceSettings({ redis, keys: createKeyScheme({ prefix: dstPrefix }) }).setChart(
        T2,
        "off",
      );
      const live = await view(redis, dstPrefix, dstQueue);
      // The new slot got a scheduler; the paused one's slot, left empty, lost its own.
      expect(await schedulers(url, dstQueue)).toHaveLength(2);
      expect(await schedulers(url, dstQueue)).not.toEqual(await schedulers(url, srcQueue));

      const refused = await cli(["restore", "--prefix", dstPrefix], env, file);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `insights-digest: Nothing was restored: prefix "${dstPrefix}" on 127.0.0.1:${new URL(url).port} already holds records this file would change: 1 sub, 1 idx, 1 settings differ from the file's and would be overwritten; 1 sub, 1 slot, 1 slot-workspaces are not in the file and would be deleted. restore --replace makes it equal to the file (the schedulers follow); --prefix NAME restores into another prefix.\n`,
      );
      expect(await view(redis, dstPrefix, dstQueue)).toEqual(live);

      const replaced = await cli(["restore", "--prefix", dstPrefix, "--replace"], env, file);
      expect(replaced.code).toBe(0);
      expect(replaced.stdout).toMatch(
        /^restore: 1 sub, 1 idx, 1 slot, 1 settings, 1 slot-workspaces into .*\), 13 already there; replaced: 1 sub, 1 idx, 1 settings overwritten, 1 sub, 1 slot, 1 slot-workspaces deleted; 2 time slots, 1 schedulers made, 1 removed\n$/,
      );
      expect(await view(redis, dstPrefix, dstQueue)).toEqual(await view(redis, srcPrefix, srcQueue));
      const records = (f: string) => f.trim().split("\n").slice(1);
      expect(records((await cli(["backup", "--prefix", dstPrefix], { REDIS_URL: url })).stdout)).toEqual(
        records(file),
      );
      expect(await schedulers(url, dstQueue)).toEqual(await schedulers(url, srcQueue));
    } finally {
      await runtime.close();
      await redis.quit();
    }
  });
});
