import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyringEntry } from "../../src/config.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { formatKeyring, generateKeyring, seal } from "../../src/store/crypto.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { backends, connect } from "../setup/backends.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const meta = { savedBy: "U0ADMIN", savedAt: "2026-11-02T09:00:00.000Z" };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI with only the variables given (plus PATH/HOME so node and tsx work). */
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/insights-digest.js", ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "warn", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(backends())("insights-digest rotate-keys ($name)", ({ url: backendUrl }) => {
  let redis: RedisClient;
  let url: string;
  beforeAll(() => {
    url = backendUrl;
    redis = connect(url, "client");
  });
  afterAll(async () => {
    await redis.quit();
  });

  it("rotates end to end, prints the counts, and a second run rotates nothing", async () => {
    const prefix = `t-cli-${randomUUID().slice(0, 8)}`;
    const [k2, k1] = generateKeyring(2) as [KeyringEntry, KeyringEntry];
    const apiKey = `pk-${randomBytes(12).toString("hex")}`;
    const old = createApiKeyStore({ redis, keyring: [k1], prefix });
    await old.save({ enterpriseId: "E1", teamId: "T1" }, apiKey, meta);
    await old.save({ teamId: "T2" }, `pk-${randomBytes(12).toString("hex")}`, meta);
    const env = { REDIS_URL: url, ENCRYPTION_KEYS: formatKeyring([k2, k1]) };

    const first = await cli(["rotate-keys", "--prefix", prefix], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/scanned 2, rotated 2, already current 0, failed 0/);
    const loaded = await createApiKeyStore({ redis, keyring: [k2], prefix }).load({
      enterpriseId: "E1",
      teamId: "T1",
    });
    expect(loaded?.apiKey).toBe(apiKey);

    const second = await cli(["rotate-keys", "--prefix", prefix], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/scanned 2, rotated 0, already current 2, failed 0/);
    for (const out of [first, second]) {
      expect(out.stdout + out.stderr).not.toContain(apiKey);
      expect(out.stdout + out.stderr).not.toContain(k2.key.toString("base64"));
    }
  });

  it("exits 1 when a value cannot be rotated", async () => {
    const prefix = `t-cli-${randomUUID().slice(0, 8)}`;
    const ref = { teamId: "T3" };
    const orphan = seal(generateKeyring(), "pk-orphan", { ref, purpose: "api_key" }).replace(".k1.", ".k0.");
    await redis.hset(createKeyScheme({ prefix }).apiKey(ref), { "enc:api_key": orphan, ...meta });
    const run = await cli(["rotate-keys", "--prefix", prefix], {
      REDIS_URL: url,
      ENCRYPTION_KEYS: formatKeyring(generateKeyring(2)),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/scanned 1, rotated 0, already current 0, failed 1/);
    expect(run.stderr).toContain("k0"); // the warning names the missing key id
  });

  it("exits 1 naming ENCRYPTION_KEYS when it is missing", async () => {
    const run = await cli(["rotate-keys"], { REDIS_URL: url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ENCRYPTION_KEYS");
    expect(run.stdout).not.toMatch(/scanned/);
  });

  it("exits 1 naming ENCRYPTION_KEYS when it is malformed, without echoing it", async () => {
    const run = await cli(["rotate-keys"], {
      REDIS_URL: url,
      ENCRYPTION_KEYS: "k1:c2VjcmV0LXRvby1zaG9ydA==",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ENCRYPTION_KEYS");
    expect(run.stderr).not.toContain("c2VjcmV0LXRvby1zaG9ydA");
  });
});
