import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Runs `insights-digest demo <args> --out <fresh dir>` as a newcomer would: the CLI with none of the
 * app's variables set, so it starts its own Redis and stand-ins. Resolves when the process exits.
 */
export async function runDemo(args: string[], outPrefix: string) {
  const out = mkdtempSync(join(tmpdir(), outPrefix));
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if (/^(SLACK_|REDIS_URL|ANALYTICS_|ENCRYPTION_KEYS)/.test(k)) delete env[k];
  const child = spawn(process.execPath, ["bin/insights-digest.js", "demo", ...args, "--out", out], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { out, code, stdout, stderr };
}
