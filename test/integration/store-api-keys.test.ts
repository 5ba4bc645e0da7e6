import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { generateKeyring } from "../../src/store/crypto.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { createSealedValueStore } from "../../src/store/sealed-store.ts";
import { backends, useRedis } from "../setup/backends.ts";

const A = { enterpriseId: "E1", teamId: "TA" };
const B = { enterpriseId: "E1", teamId: "TB" };
const meta = { savedBy: "U0ADMIN", savedAt: "2026-11-02T09:00:00.000Z" };
const uniquePrefix = () => `t-apikeys-${randomUUID().slice(0, 8)}`;
const secret = (label: string) => `${label}-${randomBytes(18).toString("base64url")}`;

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** Every key and every value in the whole database, read by type. */
async function dumpAll(redis: RedisClient): Promise<string[]> {
  const out: string[] = [];
  for await (const page of scanKeys(redis, "*")) {
    for (const key of page) {
      out.push(key);
      const type = await redis.type(key);
      if (type === "string") out.push((await redis.get(key)) ?? "");
      else if (type === "hash") out.push(...Object.entries(await redis.hgetall(key)).flat());
      else if (type === "set") out.push(...(await redis.smembers(key)));
      else if (type === "list") out.push(...(await redis.lrange(key, 0, -1)));
      else if (type === "zset") out.push(...(await redis.zrange(key, 0, "-1")));
      else if (type === "stream") out.push(JSON.stringify(await redis.xrange(key, "-", "+")));
    }
  }
  return out;
}

describe.each(backends())("API key store ($name)", ({ url }) => {
  const redis = useRedis(url);

  it("saves, loads, reports status and removes", async () => {
    const keyring = generateKeyring();
    const store = createApiKeyStore({ redis, keyring, prefix: uniquePrefix() });
    const key = secret("pk");
    expect(await store.load(A)).toBeNull();
    expect(await store.status(A)).toBeNull();

    await store.save(A, key, { ...meta, endpoint: "https://analytics.example/analytics/graphql" });
    expect(await store.load(A)).toEqual({
      apiKey: key,
      meta: { ...meta, endpoint: "https://analytics.example/analytics/graphql" },
    });
    expect(await store.status(A)).toEqual({
      connected: true,
      ...meta,
      endpoint: "https://analytics.example/analytics/graphql",
      keyId: "k1",
    });
    expect(await store.load(B)).toBeNull();

    // A second save replaces the whole record, endpoint included.
    const key2 = secret("pk2");
    await store.save(A, key2, { savedBy: "U0OTHER", savedAt: "2026-11-03T10:00:00.000Z" });
    expect(await store.load(A)).toEqual({
      apiKey: key2,
      meta: { savedBy: "U0OTHER", savedAt: "2026-11-03T10:00:00.000Z" },
    });

    expect(await store.remove(A)).toBe(true);
    expect(await store.remove(A)).toBe(false);
    expect(await store.load(A)).toBeNull();
    expect(await store.status(A)).toBeNull();
  });

  it("never lets the plaintext reach any Redis key or value", async () => {
    const prefix = uniquePrefix();
    const keyring = generateKeyring();
    const store = createApiKeyStore({ redis, keyring, prefix });
    const sealed = createSealedValueStore({ redis, keyring, prefix });
    const keyA = secret("pkA");
    const keyB = secret("pkB");
    const bot = `xoxb-${randomBytes(12).toString("hex")}`;
    await store.save(A, keyA, meta);
    await store.save(B, keyB, meta);
    await store.save({ enterpriseId: "E1", isEnterpriseInstall: true }, keyA, meta);
    await sealed.put("installation", A, { secrets: { bot_token: bot }, fields: { botUserId: "U0BOT" } });

    const everything = (await dumpAll(redis)).join("\n");
    expect(everything).toContain(`${prefix}:{w:TA}:E1:apikey`); // the dump does see our data
    for (const plain of [keyA, keyB, bot]) {
      expect(everything).not.toContain(plain);
      expect(everything).not.toContain(Buffer.from(plain).toString("base64"));
    }
    expect(everything).not.toContain(keyring[0]!.key.toString("base64"));
    expect((await store.load(B))?.apiKey).toBe(keyB);
    expect((await sealed.get("installation", A))?.secrets.bot_token).toBe(bot);
  });

  it("workspace A cannot read B's key, even when B's envelope is copied into A's record", async () => {
    const prefix = uniquePrefix();
    const keys = createKeyScheme({ prefix });
    const store = createApiKeyStore({ redis, keyring: generateKeyring(), prefix });
    const keyB = secret("pkB");
    await store.save(A, secret("pkA"), meta);
    await store.save(B, keyB, meta);

    const envelopeB = await redis.hget(keys.apiKey(B), "enc:api_key");
    expect(envelopeB).toMatch(/^v1\.k1\./);
    await redis.hset(keys.apiKey(A), "enc:api_key", envelopeB!);
    const err = await rejection(store.load(A));
    expect(err.code).toBe("decrypt_failed");
    expect(err.message).toContain("api_key");
    expect(err.message).not.toContain(keyB);

    // Same for B's whole hash renamed to the org-wide install, and for another purpose.
    // Read and write rather than COPY: the two workspaces hash to different cluster slots.
    await redis.hset(
      keys.apiKey({ enterpriseId: "E1", isEnterpriseInstall: true }),
      await redis.hgetall(keys.apiKey(B)),
    );
    expect((await rejection(store.load({ enterpriseId: "E1", isEnterpriseInstall: true }))).code).toBe(
      "decrypt_failed",
    );
    const sealed = createSealedValueStore({ redis, keyring: generateKeyring(), prefix });
    await redis.hset(keys.installation(B), "enc:bot_token", envelopeB!);
    expect((await rejection(sealed.get("installation", B))).code).toBe("decrypt_failed");
    expect((await store.load(B))?.apiKey).toBe(keyB);
  });

  it("a store with another keyring cannot read the key but still reports status", async () => {
    const prefix = uniquePrefix();
    await createApiKeyStore({ redis, keyring: generateKeyring(), prefix }).save(A, secret("pk"), meta);
    const other = createApiKeyStore({ redis, keyring: [{ id: "k7", key: randomBytes(32) }], prefix });
    const err = await rejection(other.load(A));
    expect(err.code).toBe("decrypt_failed");
    expect(err.message).toContain('"k1"');
    expect(await other.status(A)).toMatchObject({ connected: true, keyId: "k1" });
  });

  it("status says not connected when the envelope is unreadable", async () => {
    const prefix = uniquePrefix();
    const keys = createKeyScheme({ prefix });
    const store = createApiKeyStore({ redis, keyring: generateKeyring(), prefix });
    await store.save(A, secret("pk"), meta);
    await redis.hset(keys.apiKey(A), "enc:api_key", "garbage");
    expect(await store.status(A)).toEqual({ connected: false, ...meta, keyId: null });
  });

  it("rejects bad input without writing or echoing it", async () => {
    const prefix = uniquePrefix();
    const store = createApiKeyStore({ redis, keyring: generateKeyring(), prefix });
    for (const bad of ["", "   ", "x".repeat(4097)]) {
      const err = await rejection(store.save(A, bad, meta));
      expect(err.code).toBe("invalid_api_key");
    }
    const key = secret("pk");
    for (const ref of [{ teamId: "ta" }, { teamId: "T*" }, { teamId: "TA:apikey" }, {}]) {
      const err = await rejection(store.save(ref, key, meta));
      expect(err.code).toBe("invalid_id");
      expect(err.message).not.toContain(key);
    }
    const sealed = createSealedValueStore({ redis, keyring: generateKeyring(), prefix });
    const err = await rejection(sealed.put("installation", A, { secrets: {}, fields: { "enc:x": "y" } }));
    expect(err.code).toBe("invalid_field");
    expect(
      (await rejection(sealed.put("installation", A, { secrets: { "Bad-Purpose": "y" }, fields: {} }))).code,
    ).toBe("invalid_id");
    const written: string[] = [];
    for await (const page of scanKeys(redis, `${prefix}:*`)) written.push(...page);
    expect(written).toEqual([]);
  });

  it("refuses to build with a bad keyring", () => {
    expect(() => createApiKeyStore({ redis, keyring: [], prefix: uniquePrefix() })).toThrow(
      expect.objectContaining({ code: "bad_keyring" }),
    );
  });
});
