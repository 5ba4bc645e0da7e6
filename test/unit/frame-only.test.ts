import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every file of the product that could register a Slack listener. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the listener frame is the only way in", () => {
  it("no product code registers a Bolt listener of its own (app.command/action/view/options/event/shortcut)", () => {
    const root = new URL("../../", import.meta.url).pathname;
    const offenders = [...sources(join(root, "src")), ...sources(join(root, "commands"))].filter((file) =>
      /\bapp\.(command|action|view|options|event|shortcut|message|function|step)\s*\(/.test(
        readFileSync(file, "utf8"),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
