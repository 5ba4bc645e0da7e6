import { type ParseArgsConfig, parseArgs } from "node:util";
import { AppError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";

/** node:util parseArgs, with bad flags turned into a one-line usage error instead of a stack trace. */
export function parseCliArgs<T extends ParseArgsConfig>(config: T, usage: string) {
  try {
    return parseArgs(config);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // Node's own text for an unknown option runs to three sentences about `--`; name the option instead.
    const option = /'([^']+)'/.exec(e.message)?.[1];
    if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) {
      const known = Object.keys(config.options ?? {}).map((o) => `--${o}`);
      const guess = didYouMean(option, known);
      const hint = guess ? ` Did you mean "${guess}"?` : "";
      throw new AppError("usage", `Unknown option "${option}".${hint} Usage: ${usage}`);
    }
    throw new AppError("usage", `${e.message}. Usage: ${usage}`);
  }
}
