import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig, parseKeyring } from "../../src/config.ts";
import { ConfigError } from "../../src/errors.ts";

const key = () => randomBytes(32).toString("base64");
const serving = {
  REDIS_URL: "redis://127.0.0.1:6379",
  ENCRYPTION_KEYS: `k1:${key()}`,
  ANALYTICS_GRAPHQL_URL: "http://127.0.0.1:4000/analytics/graphql",
  SLACK_SIGNING_SECRET: "0123456789abcdef",
  SLACK_BOT_TOKEN: "xoxb-1-2-abc",
};

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("applies defaults for demo with an empty environment", () => {
    const c = loadConfig("demo", {});
    expect(c.port).toBe(3000);
    expect(c.slack.apiUrl).toBe("https://slack.com/api/");
    expect(c.logLevel).toBe("info");
    expect(c.digestAccess).toBe("everyone");
    expect(c.keyring).toBeUndefined();
  });

  it("accepts a complete single-workspace web config", () => {
    const c = loadConfig("web", { ...serving, PORT: "8080", SLACK_API_URL: "http://127.0.0.1:9/api" });
    expect(c.port).toBe(8080);
    expect(c.slack.apiUrl).toBe("http://127.0.0.1:9/api/");
    expect(c.keyring?.[0]?.id).toBe("k1");
  });

  it.each(["web", "worker", "start"] as const)("%s refuses to start without ENCRYPTION_KEYS", (mode) => {
    const { ENCRYPTION_KEYS: _, ...env } = serving;
    const err = configError(() => loadConfig(mode, env));
    expect(err.message).toContain("ENCRYPTION_KEYS");
    expect(err.variables).toContain("ENCRYPTION_KEYS");
  });

  it("names every bad variable and never echoes a value", () => {
    const err = configError(() =>
      loadConfig("web", {
        ...serving,
        PORT: "eighty",
        SLACK_BOT_TOKEN: "xoxp-secret-value",
        REDIS_URL: "http://x",
      }),
    );
    expect(err.message).toContain("PORT");
    expect(err.message).toContain("SLACK_BOT_TOKEN");
    expect(err.message).toContain("REDIS_URL");
    expect(err.message).not.toContain("xoxp-secret-value");
  });

  it.each(["web", "worker", "start"] as const)("%s requires a Slack credential", (mode) => {
    const { SLACK_BOT_TOKEN: _, ...env } = serving;
    expect(configError(() => loadConfig(mode, env)).message).toMatch(/SLACK_BOT_TOKEN .*SLACK_CLIENT_ID/);
  });

  it("rejects a partial OAuth configuration", () => {
    expect(
      configError(() => loadConfig("worker", { ...serving, SLACK_CLIENT_ID: "123.456" })).variables,
    ).toEqual(["SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "SLACK_STATE_SECRET"]);
  });

  it("treats empty strings as unset", () => {
    expect(loadConfig("demo", { PORT: "", LOG_LEVEL: " " }).port).toBe(3000);
  });

  it("reads the interactive backlog, concurrency and threads, with defaults, and names a bad one", () => {
    const d = loadConfig("start", serving).interactive;
    expect(d).toMatchObject({ backlog: 1_000, busyAfterMs: 1_500, concurrency: 50, workerThreads: 1 });
    expect(d.threads).toBeGreaterThanOrEqual(1);
    expect(d.threads).toBeLessThanOrEqual(4);
    const set = {
      ...serving,
      INTERACTIVE_BACKLOG: "0",
      INTERACTIVE_BUSY_AFTER_MS: "250",
      INTERACTIVE_CONCURRENCY: "3",
      INTERACTIVE_THREADS: "2",
      INTERACTIVE_WORKER_THREADS: "2",
    };
    expect(loadConfig("start", set).interactive).toEqual({
      backlog: 0,
      busyAfterMs: 250,
      concurrency: 3,
      threads: 2,
      workerThreads: 2,
    });
    expect(
      configError(() => loadConfig("web", { ...serving, INTERACTIVE_BUSY_AFTER_MS: "soon" })).message,
    ).toContain("INTERACTIVE_BUSY_AFTER_MS must be a whole number");
    const err = configError(() => loadConfig("web", { ...serving, INTERACTIVE_BACKLOG: "lots" }));
    expect(err.message).toContain("INTERACTIVE_BACKLOG must be a whole number");
    expect(configError(() => loadConfig("web", { ...serving, INTERACTIVE_THREADS: "0" })).message).toContain(
      "INTERACTIVE_THREADS must be between 1 and 64",
    );
    expect(
      configError(() => loadConfig("worker", { ...serving, INTERACTIVE_WORKER_THREADS: "17" })).message,
    ).toContain("INTERACTIVE_WORKER_THREADS must be between 0 and 16");
  });

  it("reads WEB_CONCURRENCY (web processes sharing the port), 1 when unset, and names a bad one", () => {
    expect(loadConfig("web", serving).webConcurrency).toBe(1);
    expect(loadConfig("web", { ...serving, WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
    expect(configError(() => loadConfig("web", { ...serving, WEB_CONCURRENCY: "0" })).message).toContain(
      "WEB_CONCURRENCY must be between 1 and 64",
    );
  });

  it("reads WORKER_NICE (the worker's threads' nice value), 10 when unset, 0 to leave them alone", () => {
    expect(loadConfig("worker", serving).workerNice).toBe(10);
    expect(loadConfig("worker", { ...serving, WORKER_NICE: "0" }).workerNice).toBe(0);
    expect(configError(() => loadConfig("worker", { ...serving, WORKER_NICE: "20" })).message).toContain(
      "WORKER_NICE must be between 0 and 19",
    );
  });

  it("parses the admin allow-list and rejects junk in it", () => {
    expect(loadConfig("demo", { ADMIN_USER_IDS: "U01ABC, W02DEF" }).adminUserIds).toEqual([
      "U01ABC",
      "W02DEF",
    ]);
    expect(configError(() => loadConfig("demo", { ADMIN_USER_IDS: "bob" })).variables).toEqual([
      "ADMIN_USER_IDS",
    ]);
  });
});

describe("drivers and data-gap settings", () => {
  const overrides = {
    DRIVERS_MAX_QUERIES: "12",
    DRIVERS_CHUNK_SIZE: "250",
    DRIVERS_CONCURRENCY: "2",
    DRIVERS_BATCH_SIZE: "4",
    GAP_MIN_DAYS: "3",
    GAP_BASELINE_DAYS: "21",
    GAP_MIN_BASELINE_DAYS: "7",
    GAP_MIN_ACTIVE_PERCENT: "80",
    GAP_MIN_EXPECTED: "50",
  };
  it.each([
    {
      when: "default to the documented thresholds",
      env: {},
      drivers: { maxQueries: 32, chunkSize: 1000, concurrency: 8, batchSize: 32 },
      gapRule: { minDays: 2, baselineDays: 28, minBaselineDays: 14, minActiveShare: 0.9, minExpected: 30 },
    },
    {
      when: "read every threshold",
      env: overrides,
      drivers: { maxQueries: 12, chunkSize: 250, concurrency: 2, batchSize: 4 },
      gapRule: { minDays: 3, baselineDays: 21, minBaselineDays: 7, minActiveShare: 0.8, minExpected: 50 },
    },
  ])("$when", ({ env, drivers, gapRule }) => {
    const c = loadConfig("demo", env);
    expect(c.drivers).toEqual(drivers);
    expect(c.gapRule).toEqual(gapRule);
  });

  it("refuses bad thresholds by name", () => {
    expect(configError(() => loadConfig("demo", { GAP_MIN_ACTIVE_PERCENT: "101" })).variables).toEqual([
      "GAP_MIN_ACTIVE_PERCENT",
    ]);
    expect(configError(() => loadConfig("demo", { DRIVERS_MAX_QUERIES: "many" })).message).toContain(
      "DRIVERS_MAX_QUERIES",
    );
    expect(
      configError(() => loadConfig("demo", { GAP_BASELINE_DAYS: "10", GAP_MIN_BASELINE_DAYS: "20" }))
        .variables,
    ).toContain("GAP_MIN_BASELINE_DAYS");
  });
});

describe("the slot warm-up's lead", () => {
  it("defaults to 15 s, reads seconds, and 0 turns it off", () => {
    expect(loadConfig("demo", {}).slotWarmLeadMs).toBe(15_000);
    expect(loadConfig("demo", { SLOT_WARM_LEAD_SECONDS: "5" }).slotWarmLeadMs).toBe(5_000);
    expect(loadConfig("demo", { SLOT_WARM_LEAD_SECONDS: "0" }).slotWarmLeadMs).toBe(0);
  });

  it("refuses a lead past 60 s (the shared results would expire before the slot's deliveries end) by name", () => {
    for (const bad of ["61", "-1", "soon", "1.5"])
      expect(configError(() => loadConfig("demo", { SLOT_WARM_LEAD_SECONDS: bad })).variables).toEqual([
        "SLOT_WARM_LEAD_SECONDS",
      ]);
  });
});

describe("parseKeyring", () => {
  it("keeps order, newest first", () => {
    const ring = parseKeyring(`k2:${key()}, k1:${key()}`);
    expect(ring.map((k) => k.id)).toEqual(["k2", "k1"]);
    expect(ring.every((k) => k.key.length === 32)).toBe(true);
  });

  it.each([
    ["no id", `:${key()}`],
    ["short key", `k1:${randomBytes(16).toString("base64")}`],
    ["not base64", "k1:%%%%"],
    ["duplicate ids", `k1:${key()},k1:${key()}`],
    ["empty", " , "],
  ])("rejects %s", (_name, value) => {
    const err = configError(() => parseKeyring(value));
    expect(err.variables).toEqual(["ENCRYPTION_KEYS"]);
    expect(err.message).not.toContain(value.slice(3, 20) || "∅");
  });
});
