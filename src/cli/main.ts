import module from "node:module";
import { isAppError } from "../errors.ts";
import { redactText } from "../log.ts";
import { didYouMean } from "../suggest.ts";
import { type CliCommand, COMMANDS, usage } from "./commands.ts";
import { appVersion } from "./version.ts";

const HELP = ["--help", "-h", "help"];
const VERSION = ["--version", "-v", "-V", "version"];

/** Reads `.env` from the working directory for commands that take configuration. */
async function readEnvFile(command: CliCommand): Promise<void> {
  if (!command.envFile) return;
  const { loadEnvFile } = await import("../config.ts");
  const result = loadEnvFile(".env");
  if (result.status === "unsupported") {
    process.stderr.write(
      `insights-digest: ignoring .env: Node ${process.version} cannot read it (Node 20.12 or newer can); export its variables instead.\n`,
    );
  }
}

/** CLI entry: `insights-digest <command> [args]`. Errors print one sentence and exit 1. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || HELP.includes(name)) {
    process.stdout.write(usage());
    return 0;
  }
  if (VERSION.includes(name)) {
    process.stdout.write(`insights-digest ${appVersion()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const guess = didYouMean(name, [...COMMANDS.map((c) => c.name), "--help", "--version"]);
    const hint = guess ? ` Did you mean "insights-digest ${guess}"?` : "";
    process.stderr.write(`insights-digest: unknown command "${name}".${hint}\n\n${usage()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`insights-digest ${command.name} ${command.args}\n\n${command.summary}\n`);
    return 0;
  }
  await readEnvFile(command);
  const mod = await command.load();
  return mod.run(rest);
}

/**
 * Keeps compiled code on disk between starts where Node offers it (22.1 and newer; 20 has no such
 * API): a restarted worker, a new web process or a CLI run loads its modules without compiling them
 * again. Node's default directory, which NODE_COMPILE_CACHE overrides and NODE_DISABLE_COMPILE_CACHE=1
 * turns off; a directory that cannot be written only means no cache (Node reports it, never throws).
 */
function keepCompiledCode(): void {
  const api = module as {
    enableCompileCache?: () => { directory?: string };
    flushCompileCache?: () => void;
  };
  const enabled = api.enableCompileCache?.();
  // Digest threads and child processes find it through the environment.
  if (enabled?.directory) process.env.NODE_COMPILE_CACHE = enabled.directory;
  // Node writes the cache when the process exits; a worker or web process may never exit cleanly
  // (SIGKILL, a lost machine), so what its start compiled is written once it has started.
  if (api.flushCompileCache) setTimeout(() => api.flushCompileCache?.(), 15_000).unref();
}

keepCompiledCode();
main(process.argv.slice(2)).then(
  (code) => {
    // Long-running commands (web, worker, emulator) return a code only when they stop.
    if (typeof code === "number") process.exitCode = code;
  },
  (err: unknown) => {
    if (isAppError(err)) {
      process.stderr.write(`insights-digest: ${redactText(err.message)}\n`);
    } else {
      process.stderr.write(
        `insights-digest: unexpected error: ${redactText(String((err as Error)?.stack ?? err))}\n`,
      );
    }
    // Exit now: a command that failed while starting may already hold connections (a Redis
    // client reconnecting forever) that would otherwise keep a failed process alive.
    process.exit(1);
  },
);
