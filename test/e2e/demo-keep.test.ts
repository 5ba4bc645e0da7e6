import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { productCli } from "../setup/product-build.ts";

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

describe("npm run demo -- --keep", () => {
  // The whole demo plays before the prompt (about 25 s alone, more beside other files): the ceilings
  // catch a hang, they are not a speed target.
  it("answers a typed command at its prompt, and Ctrl-C stops everything it started", async () => {
    const env = { ...process.env };
    for (const k of Object.keys(env))
      if (/^(SLACK_|REDIS_URL|ANALYTICS_|ENCRYPTION_KEYS)/.test(k)) delete env[k];
    const out = mkdtempSync(join(tmpdir(), "demo-keep-"));
    const product = productCli(["demo", "--keep", "--out", out]);
    const child = spawn(process.execPath, product.argv, {
      env: { ...env, ...product.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const until = async (re: RegExp) => {
      for (let i = 0; i < 1_200 && !re.test(stdout); i++) await new Promise((r) => setTimeout(r, 100));
      expect(stdout).toMatch(re);
    };
    await until(/\/insights $/m);
    const ports = [...stdout.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
    expect(ports.length).toBeGreaterThanOrEqual(3);
    child.stdin.write("lastmonth\n");
    await until(/\/insights lastmonth \(message\)/);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    expect(await exited).not.toBeNull();
    for (const port of ports) expect(await portOpen(port)).toBe(false);
  }, 150_000);
});
