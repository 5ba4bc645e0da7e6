import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfig, loadEnvFile } from "../../src/config.ts";
import { ConfigError } from "../../src/errors.ts";

const dir = mkdtempSync(join(tmpdir(), "env-file-"));
function file(text: string): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.env`);
  writeFileSync(path, text);
  return path;
}

describe("loadEnvFile", () => {
  it("reads the .env.example format into the environment loadConfig then reads", () => {
    const path = file(
      [
        "# a comment",
        "SLACK_SIGNING_SECRET=0123456789abcdef",
        "SLACK_BOT_TOKEN=xoxb-1-2-abc",
        'ENCRYPTION_KEYS="k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="',
        "REDIS_URL=redis://127.0.0.1:6379",
        "ANALYTICS_APP_URL=https://app.example.com",
        "PORT=3999",
        "SLACK_APP_TOKEN=",
      ].join("\n"),
    );
    const env: Record<string, string | undefined> = {};
    const result = loadEnvFile(path, env);
    expect(result).toMatchObject({ status: "loaded", path });
    expect(env.SLACK_BOT_TOKEN).toBe("xoxb-1-2-abc");
    const config = loadConfig("web", env);
    expect(config.port).toBe(3999);
    expect(config.slack.signingSecret).toBe("0123456789abcdef");
    // An empty assignment means unset, as in .env.example.
    expect(config.slack.appToken).toBeUndefined();
  });

  it("never overrides a variable already set, even to an empty string", () => {
    const path = file("PORT=1111\nLOG_LEVEL=debug\nCHARTS=off\n");
    const env: Record<string, string | undefined> = { PORT: "2222", CHARTS: "" };
    const result = loadEnvFile(path, env);
    expect(env).toEqual({ PORT: "2222", CHARTS: "", LOG_LEVEL: "debug" });
    expect(result).toMatchObject({ status: "loaded", names: ["LOG_LEVEL"] });
  });

  it("is a no-op without a file", () => {
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFile(join(dir, "missing.env"), env)).toMatchObject({ status: "absent" });
    expect(env).toEqual({});
  });

  it("says so, and reads nothing, on a Node without a .env parser (before 20.12)", () => {
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFile(file("PORT=1\n"), env, null)).toMatchObject({ status: "unsupported" });
    expect(env).toEqual({});
  });

  it("uses Node's own parser by default", () => {
    const text = "A=1\nexport B=\"two words\"\nC='x # not a comment'\n";
    const env: Record<string, string | undefined> = {};
    loadEnvFile(file(text), env);
    expect(env).toEqual(parseEnv(text));
  });

  it("fails with a sentence when the path is not a readable file", () => {
    const folder = join(dir, "folder.env");
    mkdirSync(folder);
    expect(() => loadEnvFile(folder, {})).toThrow(ConfigError);
    expect(() => loadEnvFile(folder, {})).toThrow(`${folder} could not be read (EISDIR)`);
  });
});
