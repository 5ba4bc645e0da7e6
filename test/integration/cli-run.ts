import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { productCli } from "../setup/product-build.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = join(ROOT, "bin", "insights-digest.js");

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const made: string[] = [];

/** A fresh empty directory: a working directory with no .env, or a PATH with no redis-server. */
export function emptyDir(name = "cli-"): string {
  const dir = mkdtempSync(join(tmpdir(), name));
  made.push(dir);
  return dir;
}

/** Removes every directory emptyDir made (for afterAll). */
export function removeEmptyDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs a command as a user would, with only the variables given (plus PATH and HOME), in `cwd`
 * (an empty temp dir by default, so a developer's own .env never leaks in). A child still running
 * after `hangMs` is killed (`stdin`, when given, is its input), and the run reports the signal: that is a hang, never a slow pass.
 */
export function run(
  argv: string[],
  o: { env?: Record<string, string>; cwd?: string; hangMs?: number; stdin?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: o.cwd ?? emptyDir(),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...o.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const guard = setTimeout(() => child.kill("SIGKILL"), o.hangMs ?? 25_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    });
    // As `<command> < file` would: the text (none by default), then end of input.
    child.stdin.end(o.stdin ?? "");
  });
}

/** `insights-digest <args>`: the fresh build's CLI, or the bin script on the sources (test/setup/product-build.ts). */
export function cli(args: string[], o: Parameters<typeof run>[1] = {}): Promise<Run> {
  const product = productCli(args);
  return run(product.argv, { ...o, env: { ...product.env, ...o.env } });
}
