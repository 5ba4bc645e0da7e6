import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AppError } from "../errors.ts";

/**
 * The sandbox (analytics emulator, Slack stand-in, demo, bench) is a development tool: it lives in
 * `sandbox/` beside the product and never enters the production build. The CLI loads it on demand
 * from the source checkout; run from the built `dist/`, it needs the dev dependencies (tsx) that a
 * source checkout has after `npm ci`, and says so when they are missing.
 */
export async function loadSandbox<T>(
  module: string,
  say: {
    /** What needs the sandbox, said first when it is not there. */
    needs?: string;
    /** Another way to get what the user wanted, said last. */
    instead?: string;
  } = {},
): Promise<T> {
  const needs =
    say.needs ??
    "The demo, emulator and bench are development tools that live in a source checkout (sandbox/)";
  const instead = say.instead ? ` ${say.instead}` : "";
  const fromSource = import.meta.url.endsWith(".ts");
  // src/cli/ in a checkout, dist/src/cli/ in a build: the sandbox sits at the checkout's top level.
  const url = new URL(`${fromSource ? "../../" : "../../../"}sandbox/${module}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    throw new AppError(
      "sandbox_unavailable",
      `${needs}; this install has none. Clone the repository and run \`npm ci\` there to use it.${instead}`,
    );
  }
  if (!fromSource) {
    try {
      const tsx = (await import("tsx/esm/api")) as { register: () => void };
      tsx.register();
    } catch {
      throw new AppError(
        "sandbox_unavailable",
        `${needs}, and runs from TypeScript sources with the dev dependencies: run \`npm ci\` (not \`npm ci --omit=dev\`) in the checkout.${instead}`,
      );
    }
  }
  return (await import(url.href)) as T;
}
