#!/usr/bin/env node
// The `insights-digest` command. In a source checkout after `npm ci`, tsx (a dev dependency) runs
// the TypeScript sources, so edits take effect with no build step. In a production install
// (`npm ci --omit=dev`, no tsx) it runs the JavaScript built by `npm run build` into dist/.
import { existsSync } from "node:fs";

const root = new URL("../", import.meta.url);
const sources = new URL("src/cli/main.ts", root);
const built = new URL("dist/src/cli/main.js", root);

/** tsx's loader, or undefined when the dev dependencies are not installed. */
async function tsx() {
  try {
    return await import("tsx/esm/api");
  } catch (err) {
    if (err?.code === "ERR_MODULE_NOT_FOUND") return undefined;
    throw err;
  }
}

const loader = existsSync(sources) ? await tsx() : undefined;
if (loader) {
  loader.register();
  await import(sources.href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    "insights-digest: this install has neither the dev dependencies (tsx) to run the TypeScript sources nor a build in dist/. Run `npm ci` for a development checkout, or `npm run build` (before `npm prune --omit=dev`) for production.\n",
  );
  process.exitCode = 1;
}
