import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { secretTag } from "../../src/store/secret-tag.ts";

describe("secretTag", () => {
  it("tells secrets apart without holding them: stable within the process, distinct per secret", () => {
    const token = "xoxb-1111-2222-abcdefghijklmnop";
    expect(secretTag(token)).toBe(secretTag(token));
    expect(secretTag(token)).not.toBe(secretTag(`${token}x`));
    expect(secretTag(token)).not.toContain("xoxb");
    expect(secretTag(token)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("is keyed: a plain hash of a guessed secret does not match its tag", () => {
    const key = "api-key-guess";
    const plain = createHash("sha256").update(key).digest("base64url");
    expect(plain.startsWith(secretTag(key))).toBe(false);
  });
});
