import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config.ts";

/**
 * `.env.example` is where an operator learns what can be set: a variable that src/config.ts reads
 * but the example leaves out is a setting nobody finds.
 */
describe(".env.example", () => {
  const example = readFileSync(resolve(import.meta.dirname, "../../.env.example"), "utf8");
  const documented = new Set(Object.keys(parseEnv(example)));

  it("names every variable src/config.ts reads", () => {
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(40);
    expect(CONFIG_VARIABLES.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("names nothing src/config.ts does not read", () => {
    expect([...documented].filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it("loads as it stands: every value it sets is one loadConfig accepts", () => {
    expect(() => loadConfig("demo", parseEnv(example))).not.toThrow();
  });
});
