import { describe, expect, it } from "vitest";
import {
  BACKUP_KINDS,
  backupKindOf,
  KEY_FAMILIES,
  type KeyFamilyFate,
  SLOT_WORKSPACES,
} from "../../src/store/backup-scope.ts";
import { createKeyScheme, type KeyScheme, SEALED_KINDS, type WorkspaceRef } from "../../src/store/keys.ts";

/**
 * The key layout walked: every builder of the scheme keys.ts makes is called with sample arguments,
 * and each key it builds must be one the backup selects (backupKindOf, the function the backup
 * itself filters with) or belong to a builder declared derivable. The builders come from the scheme
 * object, not from a list here, so a new one is walked the day it is added.
 */

const REFS: WorkspaceRef[] = [
  { teamId: "T0WALK1" },
  { enterpriseId: "E0WALK1", teamId: "T0WALK2" },
  { enterpriseId: "E0WALK9", isEnterpriseInstall: true },
];

/** Sample values for a builder's parameter, by its name in keys.ts. */
function samples(param: string): unknown[] {
  if (param === "ref") return REFS;
  if (param === "kind") return [...SEALED_KINDS];
  // Parsers: something that is not a key (they answer null, building nothing).
  if (param === "key") return ["walk:not-a-key"];
  // Every other argument is an id or a token; this one is valid as both.
  return ["X0WALK1"];
}

/** The parameter names of a function, as its source spells them. */
function paramNames(fn: (...args: unknown[]) => unknown): string[] {
  const m = /^[^(]*\(([^)]*)\)/.exec(fn.toString());
  return (m?.[1] ?? "")
    .split(",")
    .map((p) => p.trim().split(/[\s=:]/)[0] as string)
    .filter((p) => p !== "");
}

function product(lists: unknown[][]): unknown[][] {
  return lists.reduce<unknown[][]>((acc, list) => acc.flatMap((a) => list.map((x) => [...a, x])), [[]]);
}

/** The strings a builder's answer holds: itself, an array's items, a plain object's values. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  if (value && typeof value === "object" && Object.values(value).every((v) => typeof v === "string"))
    return Object.values(value) as string[];
  return [];
}

/** Every function of a scheme, by name, with the keys it builds from the samples (patterns apart). */
function walk(scheme: Record<string, unknown>) {
  const builders = new Map<string, { keys: string[]; patterns: string[]; failed: string[] }>();
  for (const [name, value] of Object.entries(scheme)) {
    if (typeof value !== "function") continue;
    const fn = value as (...args: unknown[]) => unknown;
    const built = { keys: [] as string[], patterns: [] as string[], failed: [] as string[] };
    for (const args of product(paramNames(fn).map(samples))) {
      try {
        for (const s of strings(fn(...args))) (s.includes("*") ? built.patterns : built.keys).push(s);
      } catch (err) {
        built.failed.push((err as Error).message);
      }
    }
    builders.set(name, built);
  }
  return builders;
}

/** What is wrong with the scheme's families against their declared fates; empty when nothing. */
function problems(scheme: KeyScheme & Record<string, unknown>, families: Record<string, KeyFamilyFate>) {
  const out: string[] = [];
  for (const [name, built] of walk(scheme)) {
    const fate = families[name];
    if (fate === undefined) {
      out.push(`${name}: neither backed up nor declared derivable (src/store/backup-scope.ts)`);
      continue;
    }
    if (built.keys.length + built.patterns.length === 0 && built.failed.length > 0)
      out.push(
        `${name}: built nothing from the samples (${built.failed[0]}); teach samples() its parameters`,
      );
    if (fate === "backup") {
      if (built.keys.length === 0) out.push(`${name}: declared backed up but builds no key`);
      for (const key of built.keys)
        if (!backupKindOf(scheme, key)) out.push(`${name}: declared backed up, but the backup skips ${key}`);
    } else if ("derivable" in fate) {
      if (built.keys.length === 0) out.push(`${name}: declared derivable but builds no key`);
      for (const key of built.keys)
        if (backupKindOf(scheme, key)) out.push(`${name}: declared derivable, but the backup holds ${key}`);
      if (!/^[^\n]{10,160}$/.test(fate.derivable)) out.push(`${name}: give one line saying why`);
    } else {
      for (const key of built.keys)
        if (scheme.parse(key) !== null || scheme.parseSlotKey(key) !== null)
          out.push(`${name}: declared not a key, but builds the key ${key}`);
    }
  }
  return out;
}

const scheme = createKeyScheme({ prefix: "walk" });

describe("every key family is backed up or declared derivable", () => {
  it("the key layout of keys.ts, walked builder by builder", () => {
    expect(problems(scheme, KEY_FAMILIES)).toEqual([]);
    // The walk reached the scheme's builders (not an empty object), and each declared one exists.
    const names = [...walk(scheme).keys()];
    expect(names.length).toBeGreaterThan(20);
    expect(Object.keys(KEY_FAMILIES).sort()).toEqual(names.sort());
  });

  it("each kind the backup holds is built by a builder declared backed up", () => {
    const held = new Set<string>();
    for (const [name, built] of walk(scheme))
      if (KEY_FAMILIES[name as keyof typeof KEY_FAMILIES] === "backup")
        for (const key of built.keys) held.add(backupKindOf(scheme, key)?.kind ?? "?");
    expect([...held].sort()).toEqual([...Object.keys(BACKUP_KINDS), SLOT_WORKSPACES].sort());
  });

  it("fails on a new family no one declared, and on a declaration the backup contradicts", () => {
    const ns = (ref: WorkspaceRef) => scheme.namespace(ref);
    const grown = { ...scheme, reminder: (ref: WorkspaceRef, subId: string) => `${ns(ref)}:remind:${subId}` };
    expect(problems(grown, KEY_FAMILIES)).toEqual([
      "reminder: neither backed up nor declared derivable (src/store/backup-scope.ts)",
    ]);
    expect(problems(grown, { ...KEY_FAMILIES, reminder: "backup" })).toContain(
      "reminder: declared backed up, but the backup skips walk:{w:T0WALK1}:-:remind:X0WALK1",
    );
    expect(
      problems(scheme, { ...KEY_FAMILIES, settings: { derivable: "an admin sets it again" } }),
    ).toContain("settings: declared derivable, but the backup holds walk:{w:T0WALK1}:-:settings");
  });
});
