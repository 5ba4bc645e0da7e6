/**
 * The one error base of the project: every failure we expect carries a machine-readable `code`,
 * so callers branch on codes and one place (templates/errors) maps codes to user messages.
 *
 * @example
 * throw new AppError("bad_range", "lastXd is not a range. Try last7d or 2026-11-01..2026-11-15.");
 */
export class AppError<C extends string = string> extends Error {
  readonly code: C;
  /** Extra structured data for logs and templates; never holds a secret. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: C,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
  }
}

/** A bad or missing environment variable. The message names the variable. */
export class ConfigError extends AppError<"config"> {
  readonly variables: readonly string[];
  constructor(message: string, variables: readonly string[]) {
    super("config", message, { details: { variables } });
    this.variables = variables;
  }
}

/**
 * Marks AppErrors (and their subclasses) made by any copy of this module. The sandbox always runs
 * from the TypeScript sources, also beside a built CLI (`node dist/src/cli/main.js demo`), so an
 * error it throws is an instance of the sources' class, not of the build's.
 */
const APP_ERROR = Symbol.for("insights-digest.AppError");
Object.defineProperty(AppError.prototype, APP_ERROR, { value: true });

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError || (err instanceof Error && APP_ERROR in err);
}
