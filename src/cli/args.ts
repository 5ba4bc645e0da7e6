import { type ParseArgsConfig, parseArgs } from "node:util";
import { AppError } from "../errors.ts";

/** node:util parseArgs, with bad flags turned into a one-line usage error instead of a stack trace. */
export function parseCliArgs<T extends ParseArgsConfig>(config: T, usage: string) {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new AppError("usage", `${(err as Error).message}. Usage: ${usage}`);
  }
}
