import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { readCsv, readCsvWithPython } from "../fixtures/csv.ts";
import { TESTS_NEED_REDIS_SERVER } from "../setup/redis.ts";
import { cli, emptyDir, ROOT, removeEmptyDirs, run } from "./cli-run.ts";

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const keys = () => `k1:${randomBytes(32).toString("base64")}`;
/** One line of stderr, with no stack frame and no internal `[code]` suffix. */
const ONE_SENTENCE = /^insights-digest: [^\n]+\n$/;
const INTERNAL = /\[[a-z_]+\]\s*$|\n\s+at /m;

afterAll(removeEmptyDirs);

describe("insights-digest: the first commands a newcomer types", () => {
  it("--version prints the package version", async () => {
    const r = await cli(["--version"]);
    expect(r).toMatchObject({ code: 0, stdout: `insights-digest ${version}\n`, stderr: "" });
  });

  it("an unknown command gets a did-you-mean, then the usage", async () => {
    const r = await cli(["previw", "last7d"]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe(
      'insights-digest: unknown command "previw". Did you mean "insights-digest preview"?',
    );
    expect(r.stderr).toContain("Usage: insights-digest <command> [options]");
    expect((await cli(["--verison"])).stderr).toContain('Did you mean "insights-digest --version"?');
  });

  it("the README's example works with every shell quoting of the asset", async () => {
    for (const asset of ['asset:"payments / api"', "asset:payments / api"]) {
      const r = await cli(["preview", "last30d", asset]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Assets: payments / api");
    }
  });

  it("a typo in preview's range gets the closest range, in one line without a code", async () => {
    const r = await cli(["preview", "lst7d"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(ONE_SENTENCE);
    expect(r.stderr).toContain('I don\'t know "lst7d". Did you mean "last7d"?');
    expect(r.stderr).not.toMatch(INTERNAL);
    const flag = await cli(["preview", "--jsn"]);
    expect(flag.stderr).toMatch(/^insights-digest: Unknown option "--jsn"\. Did you mean "--json"\? Usage: /);
  });

  it("--chart to a path that cannot be written says why in a sentence, before printing anything", async () => {
    const path = join(emptyDir(), "no-such-folder", "trend.png");
    const r = await cli(["preview", "last7d", "--chart", path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`insights-digest: Cannot write the chart to ${path}: its folder does not exist.\n`);
    const folder = await cli(["preview", "last7d", "--chart", emptyDir()]);
    expect(folder.stderr).toMatch(/: that is a folder\.\n$/);
  });

  it("the demo without redis-server says how to get it, in one sentence", async () => {
    const r = await cli(["demo"], { env: { PATH: emptyDir("no-redis-") } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(ONE_SENTENCE);
    expect(r.stderr).toContain("redis-server was not found on PATH. Install it (Debian/Ubuntu:");
  });

  it("npm test without redis-server says the tests need it, with no stack and no REDIS_URL promise", async () => {
    const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
    const r = await run([vitest, "run", "test/unit/suggest.test.ts"], {
      cwd: ROOT,
      env: { PATH: emptyDir("no-redis-"), NO_COLOR: "1" },
    });
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain(TESTS_NEED_REDIS_SERVER);
    expect(out).not.toContain("No test files found");
    expect(out).not.toMatch(/\n\s+(at |❯ )/);
  });
});

describe("insights-digest: .env", () => {
  it("is read from the working directory, and variables already set win over it", async () => {
    const cwd = emptyDir("dotenv-");
    writeFileSync(join(cwd, ".env"), "# from .env.example\nANALYTICS_TIMEOUT_MS=12\nSLACK_BOT_TOKEN=\n");
    const fromFile = await cli(["preview", "last7d"], { cwd });
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toBe(
      "insights-digest: Invalid configuration: ANALYTICS_TIMEOUT_MS must be between 100 and 120000\n",
    );
    const overridden = await cli(["preview", "last7d"], { cwd, env: { ANALYTICS_TIMEOUT_MS: "5000" } });
    expect(overridden.stderr).toBe("");
    expect(overridden.code).toBe(0);
  });
});

describe("insights-digest: configuration errors stop every entry point with one line", () => {
  const serving = (extra: Record<string, string> = {}) => ({
    REDIS_URL: inject("redisUrl"),
    ENCRYPTION_KEYS: keys(),
    ANALYTICS_APP_URL: "http://127.0.0.1:9",
    ...extra,
  });

  it.each([
    ["web", {}, 'Missing configuration for "web": REDIS_URL, ENCRYPTION_KEYS,'],
    ["start", {}, 'Missing configuration for "start": REDIS_URL, ENCRYPTION_KEYS,'],
    ["worker", {}, 'Missing configuration for "worker": REDIS_URL, ENCRYPTION_KEYS,'],
    ["rotate-keys", {}, 'Missing configuration for "rotate-keys": REDIS_URL, ENCRYPTION_KEYS'],
    ["backup", {}, 'Missing configuration for "backup": REDIS_URL'],
    ["status", {}, 'Missing configuration for "status": REDIS_URL'],
    ["restore", {}, 'Missing configuration for "restore": REDIS_URL, ENCRYPTION_KEYS'],
    ["preview", { ANALYTICS_TIMEOUT_MS: "soon" }, "ANALYTICS_TIMEOUT_MS must be a whole number"],
    ["web", { SLACK_BOT_TOKEN: "xoxb-1" }, "SLACK_SIGNING_SECRET"],
    ["start", { SLACK_SIGNING_SECRET: "0123456789abcdef" }, "SLACK_BOT_TOKEN"],
    ["preview", { ANALYTICS_APP_URL: "https://app.example.com" }, "ANALYTICS_API_KEY is required"],
  ])("%s with %j", async (command, env, message) => {
    const vars = Object.keys(env).length === 0 || command === "preview" ? env : serving(env);
    const r = await cli([command], { env: vars });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(ONE_SENTENCE);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(INTERNAL);
  });

  it("worker without SLACK_BOT_TOKEN exits instead of hanging on its open Redis connection", async () => {
    const r = await cli(["worker"], { env: serving() });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'insights-digest: Missing configuration for "worker": SLACK_BOT_TOKEN (or SLACK_CLIENT_ID + SLACK_CLIENT_SECRET)\n',
    );
  });

  it("the usage names the commands that read .env", async () => {
    const r = await cli(["--help"]);
    expect(r.stdout).toContain(
      "start, web, worker, preview, export, status, rotate-keys, backup, restore read .env from the working directory; variables already set win over it.",
    );
  });
});

describe("insights-digest export", () => {
  /** What stderr says about the file: its facts by label, and the totals it states. */
  function about(stderr: string) {
    const facts = Object.fromEntries(
      stderr
        .trimEnd()
        .split("\n")
        .map((l) => /^([A-Z][a-zA-Z ]+): (.*)$/.exec(l)?.slice(1) ?? [l, ""]),
    );
    const said =
      /findings \d+ -> (\d+), violations \d+ -> (\d+)[\s\S]*fixes (\d+), merged violations (\d+)/.exec(
        stderr,
      );
    return { facts, said: said?.slice(1).map(Number) };
  }

  it("writes the header first, then one row per day, whose columns add up to the totals it states on stderr", async () => {
    const r = await cli(["export", "last7d", "--tz", "UTC"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\r\n")[0]).toBe("day,findings,violations,fixes,merged");
    expect(r.stdout.endsWith("\r\n")).toBe(true);
    expect(r.stdout).not.toMatch(/(^|\n)#/);
    const { rows, sums } = readCsv(r.stdout);
    expect(rows).toHaveLength(7);
    expect(rows.every((row) => /^\d{4}-\d\d-\d\d$/.test(row[0] as string) && row.length === 5)).toBe(true);
    const { facts, said } = about(r.stderr);
    expect(facts.Range).toBe(`${rows[0]?.[0]} to ${rows[6]?.[0]} (UTC)`);
    expect(facts.Assets).toBe("all");
    expect(facts.Scanners).toBe("all");
    expect(Number.isNaN(Date.parse(facts.Generated))).toBe(false);
    expect(facts["File name in Slack"]).toBe(`insights_${rows[0]?.[0]}_${rows[6]?.[0]}.csv`);
    expect(sums).toEqual(said);
  });

  it("--out writes the same file, which Python's csv module reads header-first with the same sums; a filter is named on stderr", async () => {
    const path = join(emptyDir(), "series.csv");
    const r = await cli(["export", "last30d", "asset:payments / api", "--tz", "UTC", "--out", path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const { facts, said } = about(r.stderr);
    expect(facts.Assets).toBe("payments / api");
    expect(r.stderr.endsWith(`30 days written to ${path}\n`)).toBe(true);
    const csv = readFileSync(path, "utf8");
    const { rows, sums } = readCsv(csv);
    expect(rows).toHaveLength(30);
    expect(sums).toEqual(said);
    const py = readCsvWithPython(path);
    expect(py.fieldnames).toEqual(["day", "findings", "violations", "fixes", "merged"]);
    expect(py.days).toEqual(rows.map((row) => row[0]));
    expect(py.sums).toEqual(said);
  });

  it("a typo gets the closest range", async () => {
    const typo = await cli(["export", "lst7d"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(ONE_SENTENCE);
    expect(typo.stderr).toContain(
      'I don\'t know "lst7d". Did you mean "last7d"? Usage: insights-digest export',
    );
  });
});
