import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { productCli } from "../setup/product-build.ts";

/**
 * Every entry point refuses a bad configuration the same way: one line on stderr naming the
 * variable, exit code 1, and no process left waiting. Run as a real child process of the CLI, since
 * what is checked is the process itself (its exit, its output), not a function.
 */

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the process had to be killed: it did not stop by itself. */
  hung: boolean;
}

function run(command: string, env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    const product = productCli([command]);
    const child = spawn(process.execPath, product.argv, {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...product.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    let hung = false;
    // Far longer than a refusal takes; only a process that never exits reaches it.
    const guard = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, 20_000);
    child.on("exit", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, hung });
    });
  });
}

const complete = () => ({
  REDIS_URL: inject("redisUrl"),
  ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
  ANALYTICS_GRAPHQL_URL: "http://127.0.0.1:9/analytics/graphql",
  SLACK_SIGNING_SECRET: "config-exit-signing-secret",
  SLACK_BOT_TOKEN: "xoxb-config-exit-0000",
  SLACK_API_URL: "http://127.0.0.1:9/api/",
});

function without(name: string): Record<string, string> {
  const { [name]: _, ...rest } = complete() as Record<string, string>;
  return rest;
}

describe("a bad configuration stops every entry point with one line naming the variable", () => {
  it.each([
    ["worker", "SLACK_BOT_TOKEN", without("SLACK_BOT_TOKEN")],
    ["worker", "HEALTH_PORT", { ...complete(), HEALTH_PORT: "ninety" }],
    ["web", "SLACK_SIGNING_SECRET", without("SLACK_SIGNING_SECRET")],
    ["web", "REDIS_URL", { ...complete(), REDIS_URL: "http://not-redis" }],
    ["start", "ENCRYPTION_KEYS", without("ENCRYPTION_KEYS")],
    ["rotate-keys", "ENCRYPTION_KEYS", without("ENCRYPTION_KEYS")],
  ] as const)("%s without a valid %s", async (command, variable, env) => {
    const out = await run(command, env);
    expect(out.hung).toBe(false);
    expect(out.code).toBe(1);
    const lines = out.stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(lines[0]).toMatch(/^insights-digest: (Missing|Invalid) configuration/);
    expect(out.stdout).toBe("");
  });
});
