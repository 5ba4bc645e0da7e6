import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyringEntry } from "../../src/config.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { envelopeKeyId, generateKeyring, seal } from "../../src/store/crypto.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { rotateKeys } from "../../src/store/rotate.ts";
import { createSealedValueStore } from "../../src/store/sealed-store.ts";
import { backends, connect } from "../setup/backends.ts";

const uniquePrefix = () => `t-rotate-${randomUUID().slice(0, 8)}`;
const meta = { savedBy: "U0ADMIN", savedAt: "2026-11-02T09:00:00.000Z" };
const refs: WorkspaceRef[] = [
  { enterpriseId: "E1", teamId: "TA" },
  { teamId: "TB" },
  { enterpriseId: "E1", isEnterpriseInstall: true },
];

/** The real client, with a hook that runs once just before the first EVAL (the compare-and-set). */
function beforeFirstEval(redis: RedisClient, hook: () => Promise<void>): RedisClient {
  let fired = false;
  return new Proxy(redis, {
    get(target, prop) {
      if (prop === "eval") {
        return async (...args: any[]) => {
          if (!fired) {
            fired = true;
            await hook();
          }
          return (target.eval as any)(...args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(backends())("rotateKeys ($name)", ({ url }) => {
  let redis: RedisClient;
  let k1: KeyringEntry;
  let k2: KeyringEntry;
  beforeAll(() => {
    redis = connect(url);
    [k2, k1] = generateKeyring(2) as [KeyringEntry, KeyringEntry];
  });
  afterAll(async () => {
    await redis.quit();
  });

  /** API keys for every ref and a bot token for the first, all under k1. */
  async function seedOld(prefix: string): Promise<Map<WorkspaceRef, string>> {
    const store = createApiKeyStore({ redis, keyring: [k1], prefix });
    const plain = new Map<WorkspaceRef, string>();
    for (const ref of refs) {
      const key = `pk-${randomBytes(12).toString("hex")}`;
      plain.set(ref, key);
      await store.save(ref, key, meta);
    }
    await createSealedValueStore({ redis, keyring: [k1], prefix }).put("installation", refs[0]!, {
      secrets: { bot_token: "xoxb-1-2-abc" },
      fields: { botUserId: "U0BOT" },
    });
    return plain;
  }

  it("re-encrypts everything under the newest key; values still load; a second run rotates nothing", async () => {
    const prefix = uniquePrefix();
    const keys = createKeyScheme({ prefix });
    const plain = await seedOld(prefix);
    // Look-alikes that are not sealed kinds, and another prefix, stay untouched.
    const decoy = seal([k1], "decoy", { ref: refs[0]!, purpose: "api_key" });
    await redis.hset(keys.subscription(refs[0]!, "sub1"), "enc:api_key", decoy);
    const otherPrefix = uniquePrefix();
    await createApiKeyStore({ redis, keyring: [k1], prefix: otherPrefix }).save(refs[0]!, "pk-other", meta);

    const first = await rotateKeys({ redis, keyring: [k2, k1], prefix, batchSize: 2 });
    expect(first).toEqual({ scanned: 4, rotated: 4, alreadyCurrent: 0, failed: 0, skipped: 0 });

    // Readable with the new key alone: proof the ciphertext really changed keys.
    const onlyNew = createApiKeyStore({ redis, keyring: [k2], prefix });
    for (const ref of refs) {
      expect(await onlyNew.load(ref)).toEqual({ apiKey: plain.get(ref), meta });
      expect(await onlyNew.status(ref)).toMatchObject({ keyId: "k2" });
    }
    const install = await createSealedValueStore({ redis, keyring: [k2], prefix }).get(
      "installation",
      refs[0]!,
    );
    expect(install).toEqual({ secrets: { bot_token: "xoxb-1-2-abc" }, fields: { botUserId: "U0BOT" } });
    expect(await redis.hget(keys.subscription(refs[0]!, "sub1"), "enc:api_key")).toBe(decoy);
    const otherKey = await redis.hget(
      createKeyScheme({ prefix: otherPrefix }).apiKey(refs[0]!),
      "enc:api_key",
    );
    expect(envelopeKeyId(otherKey!)).toBe("k1");

    const second = await rotateKeys({ redis, keyring: [k2, k1], prefix });
    expect(second).toEqual({ scanned: 4, rotated: 0, alreadyCurrent: 4, failed: 0, skipped: 0 });
  });

  it("counts a value under an unknown key id as failed and leaves it byte for byte", async () => {
    const prefix = uniquePrefix();
    const keys = createKeyScheme({ prefix });
    await seedOld(prefix);
    const lost = { id: "k0", key: randomBytes(32) };
    const orphan = seal([lost], "pk-orphan", { ref: { teamId: "TZ" }, purpose: "api_key" });
    await redis.hset(keys.apiKey({ teamId: "TZ" }), { "enc:api_key": orphan, ...meta });
    await redis.hset(keys.apiKey({ teamId: "TY" }), { "enc:api_key": "v1.k1.garbage", ...meta });

    const counts = await rotateKeys({ redis, keyring: [k2, k1], prefix });
    expect(counts).toEqual({ scanned: 6, rotated: 4, alreadyCurrent: 0, failed: 2, skipped: 0 });
    expect(await redis.hget(keys.apiKey({ teamId: "TZ" }), "enc:api_key")).toBe(orphan);
    expect(await redis.hget(keys.apiKey({ teamId: "TY" }), "enc:api_key")).toBe("v1.k1.garbage");
    // Still failing on a re-run, still untouched; the rest is current.
    expect(await rotateKeys({ redis, keyring: [k2, k1], prefix })).toMatchObject({
      failed: 2,
      alreadyCurrent: 4,
    });
  });

  it("does not overwrite a value written while it was rotating", async () => {
    const prefix = uniquePrefix();
    const ref = refs[1]!;
    const oldStore = createApiKeyStore({ redis, keyring: [k1], prefix });
    await oldStore.save(ref, "pk-stale", meta);
    // A web process still on the old keyring saves a new key between rotation's read and its swap.
    const racing = beforeFirstEval(redis, () => oldStore.save(ref, "pk-fresh", meta));

    const counts = await rotateKeys({ redis: racing, keyring: [k2, k1], prefix });
    expect(counts).toEqual({ scanned: 1, rotated: 1, alreadyCurrent: 0, failed: 0, skipped: 0 });
    const now = await createApiKeyStore({ redis, keyring: [k2], prefix }).load(ref);
    expect(now?.apiKey).toBe("pk-fresh");
  });

  it("skips a value deleted while it was rotating", async () => {
    const prefix = uniquePrefix();
    const ref = refs[0]!;
    const store = createApiKeyStore({ redis, keyring: [k1], prefix });
    await store.save(ref, "pk-going", meta);
    const racing = beforeFirstEval(redis, async () => {
      await store.remove(ref);
    });
    const counts = await rotateKeys({ redis: racing, keyring: [k2, k1], prefix });
    expect(counts).toEqual({ scanned: 1, rotated: 0, alreadyCurrent: 0, failed: 0, skipped: 1 });
    expect(await redis.exists(createKeyScheme({ prefix }).apiKey(ref))).toBe(0);
  });

  it("finds nothing to do in an empty prefix", async () => {
    expect(await rotateKeys({ redis, keyring: [k2, k1], prefix: uniquePrefix() })).toEqual({
      scanned: 0,
      rotated: 0,
      alreadyCurrent: 0,
      failed: 0,
      skipped: 0,
    });
  });
});
