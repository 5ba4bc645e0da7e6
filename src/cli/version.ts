import { existsSync, readFileSync } from "node:fs";

/**
 * The version in the app's package.json. Found by walking up from this module, because it sits
 * two folders deep in a checkout (src/cli/) and three in a build (dist/src/cli/).
 */
export function appVersion(from: URL = new URL(".", import.meta.url)): string {
  for (let dir = from; ; ) {
    const file = new URL("package.json", dir);
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "insights-digest" && typeof pkg.version === "string") return pkg.version;
    }
    const parent = new URL("..", dir);
    if (parent.href === dir.href) return "unknown";
    dir = parent;
  }
}
