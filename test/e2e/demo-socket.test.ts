import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** `npm run demo -- --socket`: the same flows with the app on Socket Mode, plus the step, an unfurl and a refresh. */
describe("npm run demo -- --socket", () => {
  it("plays over Socket Mode, runs the workflow step, unfurls a link, survives a refresh and exits 0", async () => {
    const out = mkdtempSync(join(tmpdir(), "demo-socket-"));
    const env = { ...process.env };
    for (const k of Object.keys(env))
      if (/^(SLACK_|REDIS_URL|ANALYTICS_|ENCRYPTION_KEYS)/.test(k)) delete env[k];
    const child = spawn(process.execPath, ["bin/insights-digest.js", "demo", "--socket", "--out", out], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("Slack → app over Socket Mode");
    expect(stdout).toContain("Connection: Socket Mode");
    expect(stdout).toMatch(
      /Step outputs for the next steps \(checked against manifest\.yaml\): \{"message_ts":"\d+\.\d{6}"/,
    );
    expect(stdout).toContain("Unfurl of http://127.0.0.1:");
    expect(stdout).toMatch(/Connection #2 open/);
    expect(stdout).toMatch(/\d+ envelopes over Socket Mode, \d+ acked, none twice: true/);
    expect(stdout).toContain("Demo finished");
  }, 90_000);
});
