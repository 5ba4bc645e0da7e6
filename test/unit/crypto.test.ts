import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type KeyringEntry, parseKeyring } from "../../src/config.ts";
import { AppError, ConfigError } from "../../src/errors.ts";
import {
  aadFor,
  assertKeyring,
  envelopeKeyId,
  formatKeyring,
  generateKeyring,
  needsRotation,
  open,
  type SealContext,
  seal,
} from "../../src/store/crypto.ts";

const ws = { enterpriseId: "E123", teamId: "T456" };
const ctx: SealContext = { ref: ws, purpose: "api_key" };
const SECRET = "pk_live_9f8e7d6c5b4a-secret-value";

function expectCode(fn: () => unknown, code: string): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(code);
    return err as AppError;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}

/** Flips one bit of one base64url part (1 = key id, 2 = iv, 3 = tag, 4 = ciphertext). */
function tamper(envelope: string, part: number): string {
  const parts = envelope.split(".");
  const bytes = Buffer.from(parts[part]!, "base64url");
  bytes[0] = bytes[0]! ^ 0x01;
  parts[part] = bytes.toString("base64url");
  return parts.join(".");
}

describe("seal / open", () => {
  const keyring = generateKeyring();

  it("round-trips text, including unicode and the empty string", () => {
    for (const text of [SECRET, "ключ 🔑 キー", ""]) {
      expect(open(keyring, seal(keyring, text, ctx), ctx)).toBe(text);
    }
  });

  it("writes the v1 compact format with the key id, a 12-byte IV and a 16-byte tag", () => {
    const env = seal(keyring, SECRET, ctx);
    const [version, keyId, iv, tag, ct] = env.split(".");
    expect(version).toBe("v1");
    expect(keyId).toBe("k1");
    expect(Buffer.from(iv!, "base64url")).toHaveLength(12);
    expect(Buffer.from(tag!, "base64url")).toHaveLength(16);
    expect(Buffer.from(ct!, "base64url")).toHaveLength(Buffer.byteLength(SECRET));
    expect(env).not.toContain(SECRET);
    expect(envelopeKeyId(env)).toBe("k1");
  });

  it("uses a fresh IV on every write", () => {
    const a = seal(keyring, SECRET, ctx);
    const b = seal(keyring, SECRET, ctx);
    expect(a).not.toBe(b);
    expect(a.split(".")[2]).not.toBe(b.split(".")[2]);
    const ivs = new Set(Array.from({ length: 200 }, () => seal(keyring, SECRET, ctx).split(".")[2]));
    expect(ivs.size).toBe(200);
  });

  it("binds the AAD to workspace and purpose", () => {
    expect(aadFor(ctx)).toBe("v1|E123|T456|api_key");
    expect(
      aadFor({
        ref: { enterpriseId: "E123", teamId: "T9", isEnterpriseInstall: true },
        purpose: "bot_token",
      }),
    ).toBe("v1|E123|-|bot_token");
    expect(aadFor({ ref: { teamId: "T456" }, purpose: "api_key" })).toBe("v1|-|T456|api_key");
  });

  it.each([
    ["another team", { ref: { enterpriseId: "E123", teamId: "T457" }, purpose: "api_key" }],
    ["another enterprise", { ref: { enterpriseId: "E124", teamId: "T456" }, purpose: "api_key" }],
    ["the same team without enterprise", { ref: { teamId: "T456" }, purpose: "api_key" }],
    [
      "the org-wide install",
      { ref: { enterpriseId: "E123", isEnterpriseInstall: true }, purpose: "api_key" },
    ],
    ["another purpose", { ref: ws, purpose: "bot_token" }],
  ])("refuses a ciphertext opened for %s", (_label, other) => {
    const env = seal(keyring, SECRET, ctx);
    const err = expectCode(() => open(keyring, env, other as SealContext), "decrypt_failed");
    expect(err.message).not.toContain(SECRET);
  });

  it.each([
    ["ciphertext", 4],
    ["tag", 3],
    ["iv", 2],
  ])("fails with decrypt_failed when the %s is tampered with", (_label, part) => {
    const env = tamper(seal(keyring, SECRET, ctx), part);
    const err = expectCode(() => open(keyring, env, ctx), "decrypt_failed");
    expect(err.message).toContain('"k1"');
    expect(err.message).toContain("api_key");
  });

  it("fails when the key id is swapped for another key of the ring or an unknown one", () => {
    const ring = generateKeyring(2);
    const env = seal(ring, SECRET, ctx); // sealed with k2
    expectCode(() => open(ring, env.replace(".k2.", ".k1."), ctx), "decrypt_failed");
    const err = expectCode(() => open(ring, env.replace(".k2.", ".k9."), ctx), "decrypt_failed");
    expect(err.message).toContain('"k9"');
    expect(err.message).toMatch(/not in the keyring/);
    expect(err.details).toMatchObject({ keyId: "k9", purpose: "api_key" });
  });

  it("never puts the plaintext or key material in the error", () => {
    const env = tamper(seal(keyring, SECRET, ctx), 4);
    const err = expectCode(() => open(keyring, env, ctx), "decrypt_failed");
    const all = `${err.message} ${JSON.stringify(err.details)} ${err.stack}`;
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(keyring[0]!.key.toString("base64"));
    expect(all).not.toContain(keyring[0]!.key.toString("base64url"));
  });

  it.each([
    "",
    "not an envelope",
    "v2.k1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA",
    "v1.k1.AAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA",
    "v1.k1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA",
    "v1.k 1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA",
    "v1.k1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AA+A",
  ])("rejects the malformed envelope %j", (env) => {
    expectCode(() => open(keyring, env, ctx), "decrypt_failed");
    expect(envelopeKeyId(env)).toBeNull();
  });

  it("property: round-trips any string, and any one-character change fails to open", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(), fc.nat(), (text, pos, ch) => {
        const env = seal(keyring, text, ctx);
        expect(open(keyring, env, ctx)).toBe(text);
        const i = pos % env.length;
        const replacement = alphabet[ch % alphabet.length]!;
        fc.pre(env[i] !== replacement);
        const changed = env.slice(0, i) + replacement + env.slice(i + 1);
        expectCode(() => open(keyring, changed, ctx), "decrypt_failed");
      }),
      { numRuns: 300 },
    );
  });
});

describe("keyring", () => {
  it("keeps old keys readable after a new key is prepended; writes use the newest", () => {
    const [k1] = generateKeyring(1) as [KeyringEntry];
    const oldEnv = seal([k1], SECRET, ctx);
    const k2 = { id: "k2", key: generateKeyring(1)[0]!.key };
    const ring = [k2, k1];
    expect(open(ring, oldEnv, ctx)).toBe(SECRET);
    const newEnv = seal(ring, SECRET, ctx);
    expect(envelopeKeyId(newEnv)).toBe("k2");
    expect(needsRotation(oldEnv, ring)).toBe(true);
    expect(needsRotation(newEnv, ring)).toBe(false);
    // Once the old key is dropped, its envelopes no longer open.
    expectCode(() => open([k2], oldEnv, ctx), "decrypt_failed");
  });

  it("needsRotation refuses an unreadable envelope", () => {
    expectCode(() => needsRotation("garbage", generateKeyring()), "decrypt_failed");
  });

  it("generateKeyring gives newest-first ids and 32-byte distinct keys", () => {
    const ring = generateKeyring(3);
    expect(ring.map((k) => k.id)).toEqual(["k3", "k2", "k1"]);
    expect(ring.every((k) => k.key.length === 32)).toBe(true);
    expect(new Set(ring.map((k) => k.key.toString("hex"))).size).toBe(3);
  });

  it("formatKeyring round-trips through the config parser", () => {
    const ring = generateKeyring(2);
    const parsed = parseKeyring(formatKeyring(ring));
    expect(parsed.map((k) => k.id)).toEqual(["k2", "k1"]);
    expect(parsed.map((k) => k.key.equals(ring[parsed.indexOf(k)]!.key))).toEqual([true, true]);
  });

  it.each([
    ["empty", []],
    ["a short key", [{ id: "k1", key: Buffer.alloc(16) }]],
    ["a long key", [{ id: "k1", key: Buffer.alloc(33) }]],
    ["a key that is not a Buffer", [{ id: "k1", key: "x".repeat(32) }]],
    ["an id with a dot", [{ id: "k.1", key: Buffer.alloc(32) }]],
    ["an empty id", [{ id: "", key: Buffer.alloc(32) }]],
    [
      "a repeated id",
      [
        { id: "k1", key: Buffer.alloc(32) },
        { id: "k1", key: Buffer.alloc(32, 1) },
      ],
    ],
  ])("rejects a keyring with %s (bad_keyring) for seal and open", (_label, ring) => {
    const bad = ring as unknown as KeyringEntry[];
    expectCode(() => assertKeyring(bad), "bad_keyring");
    expectCode(() => seal(bad, SECRET, ctx), "bad_keyring");
    expectCode(() => open(bad, seal(generateKeyring(), SECRET, ctx), ctx), "bad_keyring");
  });

  it.each(["", "k1", "k1:", ":AAAA", "k1:not-base64!", `k1:${Buffer.alloc(16).toString("base64")}`])(
    "the config parser rejects ENCRYPTION_KEYS=%j naming the variable",
    (value) => {
      let caught: unknown;
      try {
        parseKeyring(value);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).message).toContain("ENCRYPTION_KEYS");
    },
  );

  it("rejects a context whose ids are not Slack ids before encrypting anything", () => {
    const ring = generateKeyring();
    expectCode(() => seal(ring, SECRET, { ref: { teamId: "t456" }, purpose: "api_key" }), "invalid_id");
    expectCode(() => seal(ring, SECRET, { ref: { teamId: "T1|E2" }, purpose: "api_key" }), "invalid_id");
    expectCode(() => seal(ring, SECRET, { ref: ws, purpose: "API|key" }), "invalid_id");
    expectCode(() => seal(ring, SECRET, { ref: {}, purpose: "api_key" }), "invalid_id");
  });
});
