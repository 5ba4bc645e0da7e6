import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { productCli } from "../setup/product-build.ts";
import { clockEnv, testClock } from "../setup/test-clock.ts";

/**
 * Runs `insights-digest demo <args> --out <fresh dir>` as a newcomer would: the CLI with none of the
 * app's variables set, so it starts its own Redis and stand-ins. Resolves when the process exits, or
 * kills it after `hangMs` (a hang ceiling, not a speed target: the demo plays ~25 s alone, several
 * times that beside other test files on two cores) so a hung demo never outlives its test.
 */
export const DEMO_HANG_MS = 150_000;

export async function runDemo(args: string[], outPrefix: string, hangMs = DEMO_HANG_MS) {
  const out = mkdtempSync(join(tmpdir(), outPrefix));
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if (/^(SLACK_|REDIS_URL|ANALYTICS_|ENCRYPTION_KEYS|CLOCK_AT)/.test(k)) delete env[k];
  const product = productCli(["demo", ...args, "--out", out]);
  const child = spawn(process.execPath, product.argv, {
    // On the calendar projects' fixed instant (the demo's app and emulator alike), else today.
    env: { ...env, ...product.env, ...clockEnv(testClock()) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const hang = setTimeout(() => child.kill("SIGKILL"), hangMs);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(hang);
  if (code === null) stderr += `\n(the demo was killed after ${hangMs} ms)`;
  return { out, code, stdout, stderr };
}
