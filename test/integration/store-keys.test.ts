import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import {
  createKeyScheme,
  digestToken,
  type WorkspaceRef,
  workspaceKeyPattern,
  workspaceNamespace,
} from "../../src/store/keys.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { backends, useRedis } from "../setup/backends.ts";

const uniquePrefix = () => `t-keys-${randomUUID().slice(0, 8)}`;

function expectInvalid(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe("invalid_id");
}

describe("key scheme (pure)", () => {
  const keys = createKeyScheme({ prefix: "app" });

  it("namespaces by enterprise and team, behind one hash tag per workspace", () => {
    expect(keys.namespace({ enterpriseId: "E123", teamId: "T456" })).toBe("app:{w:T456}:E123");
    expect(keys.namespace({ enterpriseId: "E123", teamId: "T456", isEnterpriseInstall: true })).toBe(
      "app:{w:E123}:org",
    );
    expect(keys.namespace({ teamId: "T456" })).toBe("app:{w:T456}:-");
    expect(workspaceNamespace({ teamId: "T456" })).toBe("insights:{w:T456}:-");
    expect(workspaceKeyPattern({ teamId: "T456" }, "app")).toBe("app:{w:T456}:-:*");
    // Every key of a workspace carries the same tag: its multi-key writes stay in one cluster slot.
    const ref = { enterpriseId: "E123", teamId: "T456" };
    const tags = [
      keys.apiKey(ref),
      keys.subscription(ref, "s1"),
      keys.deliveryClaims(ref, "p1"),
      keys.slotMembers(ref, "x1"),
    ].map((k) => /\{([^}]*)\}/.exec(k)?.[1]);
    expect(new Set(tags)).toEqual(new Set(["w:T456"]));
  });

  it.each([
    [{}],
    [{ teamId: "" }],
    [{ teamId: "t456" }],
    [{ teamId: "T456:x" }],
    [{ teamId: "T*" }],
    [{ teamId: "T4 56" }],
    [{ isEnterpriseInstall: true, teamId: "T1" }],
    [{ enterpriseId: "e1", teamId: "T1" }],
    [{ teamId: "T".repeat(33) }],
  ])("rejects the ref %j with invalid_id", (ref) => {
    expectInvalid(() => keys.apiKey(ref as WorkspaceRef));
  });

  it("rejects user text in every key part and in the prefix", () => {
    const ref = { teamId: "T1" };
    expectInvalid(() => keys.user(ref, "u1"));
    expectInvalid(() => keys.slotMembers(ref, "a:b"));
    expectInvalid(() => keys.subscription(ref, "a b"));
    expectInvalid(() => keys.subscription(ref, "x:y"));
    expectInvalid(() => keys.deliveryClaims(ref, "2026-11-02T09:00"));
    expectInvalid(() => keys.insightsCache(ref, "*"));
    expectInvalid(() => keys.lock(ref, ""));
    expectInvalid(() => createKeyScheme({ prefix: "a*b" }));
    expectInvalid(() => createKeyScheme({ prefix: "a b" }));
    expectInvalid(() => createKeyScheme({ prefix: "" }));
    // A brace in the prefix would become every key's hash tag: all workspaces in one slot.
    expectInvalid(() => createKeyScheme({ prefix: "{app}" }));
  });

  it("digestToken turns any text into a key-safe token", () => {
    const t = digestToken("https://x.example/analytics/graphql?a=*&b=[1]", "2026-11-01");
    expect(t).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(digestToken("a", "b")).not.toBe(digestToken("ab"));
    expect(keys.introspection({ teamId: "T1" }, t)).toBe(`app:{w:T1}:-:introspection:${t}`);
  });

  it("parses its own keys back to the ref and kind", () => {
    const refs: WorkspaceRef[] = [
      { enterpriseId: "E1", teamId: "T2", isEnterpriseInstall: false },
      { enterpriseId: "E1", isEnterpriseInstall: true },
      { teamId: "T2" },
    ];
    for (const ref of refs) {
      expect(keys.parse(keys.apiKey(ref))).toEqual({ ref, kind: "apikey", rest: [] });
      expect(keys.parse(keys.deliveryClaims(ref, "2026-11-02"))).toEqual({
        ref,
        kind: "claims",
        rest: ["2026-11-02"],
      });
    }
    expect(keys.parse("other:{w:T2}:-:apikey")).toBeNull();
    expect(keys.parse("app:{w:-}:-:apikey")).toBeNull();
    expect(keys.parse("app:{w:t2}:-:apikey")).toBeNull();
    expect(keys.parse("app:{w:T2}:-")).toBeNull();
    // The old scheme is not this scheme (the start-up migration reads it).
    expect(keys.parse("app:ws:-:T2:apikey")).toBeNull();
  });
});

describe.each(backends())(
  "key scheme against Redis ($name): one SCAN pattern finds all of a workspace",
  ({ url }) => {
    const redis = useRedis(url);

    /** Writes one key of every kind for a workspace. */
    async function populate(keys: ReturnType<typeof createKeyScheme>, ref: WorkspaceRef): Promise<string[]> {
      const written = [
        keys.installation(ref),
        keys.apiKey(ref),
        keys.user(ref, "U1"),
        keys.subscription(ref, "sub1"),
        keys.subscriptionIndex(ref),
        keys.slotMembers(ref, "slot1"),
        keys.deliveryClaims(ref, "2026-11-02"),
        keys.insightsCache(ref, digestToken("q")),
        keys.introspection(ref, digestToken("https://x")),
        keys.lock(ref, "connect"),
      ];
      for (const k of written) await redis.set(k, "x");
      // On a cluster the keys of one workspace answer one multi-key command (one slot).
      expect(await redis.exists(...written)).toBe(written.length);
      return written;
    }

    async function scanAll(pattern: string): Promise<string[]> {
      const found: string[] = [];
      for await (const page of scanKeys(redis, pattern, 3)) found.push(...page);
      return [...new Set(found)].sort();
    }

    it("keeps workspaces, org-wide installs and prefixes apart", async () => {
      const keys = createKeyScheme({ prefix: uniquePrefix() });
      const a = { enterpriseId: "E1", teamId: "TA" };
      const b = { enterpriseId: "E1", teamId: "TB" };
      const org = { enterpriseId: "E1", isEnterpriseInstall: true };
      const solo = { teamId: "TA" };
      const aKeys = await populate(keys, a);
      const bKeys = await populate(keys, b);
      const orgKeys = await populate(keys, org);
      const soloKeys = await populate(keys, solo);
      const otherPrefix = createKeyScheme({ prefix: uniquePrefix() });
      await populate(otherPrefix, a);

      expect(await scanAll(keys.workspaceKeyPattern(a))).toEqual([...aKeys].sort());
      expect(await scanAll(keys.workspaceKeyPattern(org))).toEqual([...orgKeys].sort());
      expect(await scanAll(keys.workspaceKeyPattern(solo))).toEqual([...soloKeys].sort());
      const enterprise = (await Promise.all(keys.enterpriseKeyPatterns("E1").map(scanAll))).flat().sort();
      expect(enterprise).toEqual([...aKeys, ...bKeys, ...orgKeys].sort());
      expect(await scanAll(keys.allWorkspacesPattern())).toHaveLength(40);

      // A purge by pattern leaves nothing that names the workspace.
      for await (const page of scanKeys(redis, keys.workspaceKeyPattern(a))) await redis.unlink(...page);
      const left = await scanAll(`${keys.prefix}:*`);
      expect(left.filter((k) => k.includes("{w:TA}"))).toEqual([...soloKeys].sort());
      expect(left).toEqual([...bKeys, ...orgKeys, ...soloKeys].sort());
    });
  },
);
