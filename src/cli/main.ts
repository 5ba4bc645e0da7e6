import { isAppError } from "../errors.ts";
import { redactText } from "../log.ts";
import { COMMANDS, usage } from "./commands.ts";

/** CLI entry: `insights-digest <command> [args]`. Errors with a code print one clear line and exit 1. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`insights-digest ${command.name} ${command.args}\n\n${command.summary}\n`);
    return 0;
  }
  const mod = await command.load();
  return mod.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    // Long-running commands (web, worker, emulator) return a code only when they stop.
    if (typeof code === "number") process.exitCode = code;
  },
  (err: unknown) => {
    if (isAppError(err)) {
      process.stderr.write(`insights-digest: ${redactText(err.message)} [${err.code}]\n`);
    } else {
      process.stderr.write(
        `insights-digest: unexpected error: ${redactText(String((err as Error)?.stack ?? err))}\n`,
      );
    }
    process.exitCode = 1;
  },
);
