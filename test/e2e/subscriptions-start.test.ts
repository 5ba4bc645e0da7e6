import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../sandbox/analytics/index.ts";
import { freePort, type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import type { Stack } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { productCli } from "../setup/product-build.ts";
import { command, connect } from "./helpers.ts";
import { idIn } from "./subscriptions-helpers.ts";

const ROOT = new URL("../../", import.meta.url);
const SECRET = "start-test-signing-secret";
let redis: PrivateRedis | undefined;
let emulator: Emulator | undefined;
let slack: SlackStandIn | undefined;
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await slack?.close();
  await emulator?.close();
  await redis?.destroy();
});

const exited = (c: ChildProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    c.exitCode !== null || c.signalCode !== null
      ? resolve({ code: c.exitCode, signal: c.signalCode })
      : c.once("exit", (code, signal) => resolve({ code, signal })),
  );

async function healthy(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("insights-digest start", () => {
  it("serves Slack and delivers digests from one process; SIGTERM stops both and exits 0", async () => {
    // The CLI uses the default key prefix and queue: a Redis of its own keeps it apart from other tests.
    redis = await startPrivateRedis();
    emulator = await startEmulator({ port: 0 });
    slack = await startSlackStandIn({ signingSecret: SECRET, appUrl: "http://127.0.0.1:9/" });
    slack.setRateLimit({ enabled: false });
    const port = await freePort();
    const product = productCli(["start"]);
    child = spawn(process.execPath, product.argv, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        ...product.env,
        REDIS_URL: redis.url,
        ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
        ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_BOT_TOKEN: DEMO.botToken,
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.resume();
    child.stderr?.resume();
    await healthy(`http://127.0.0.1:${port}/readyz`, 20_000);
    slack.setAppUrl(`http://127.0.0.1:${port}/slack/events`);

    // The helpers only use the stand-in.
    const stack = { slack } as unknown as Stack;
    await connect(stack);
    // An on-demand digest: computed in the process's digest threads, answered on response_url.
    const digest = await command(stack, "last7d");
    expect(JSON.stringify(digest.body.blocks)).toContain(ACTION.share);
    const { body } = await command(stack, "subscribe weekly", DEMO.admin, DEMO.general);
    const id = idIn(body);
    await command(stack, `send ${id}`, DEMO.admin);
    const posted = await slack.waitFor(() => slack?.messages(DEMO.general)[0], { timeoutMs: 15_000 });
    expect(posted.user).toBe(DEMO.botUserId);
    expect(posted.text).toMatch(/findings/);

    const t0 = Date.now();
    child.kill("SIGTERM");
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    // Nothing left armed holds it open: a bound on the digest threads' exit that stayed set after
    // they had gone kept the process alive 5 s longer than its stop.
    expect(Date.now() - t0).toBeLessThan(4_000);
  });
});
