import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../sandbox/analytics/index.ts";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO, defaultWorkspace, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import { ACTION, BLOCK } from "../../src/ids.ts";
import { createSubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { silentLogger } from "../../src/log.ts";
import { type CliProcess, startCli } from "./cli-process.ts";

/**
 * The built-in promise of the logs: no secret in any line, whatever fails. The real `web` and
 * `worker` processes run at LOG_LEVEL=debug with a known bot token, signing secret, API key and
 * encryption key; every error path is driven (Slack unreachable, 5xx, 429, invalid_auth, response_url
 * refusals, analytics down or refusing the key, uploads failing); then everything each process wrote
 * on stdout and stderr is scanned. Every line must also be JSON: a library's own console logger
 * would print plain text beside pino's lines.
 */

const hex = (n: number) => randomBytes(n).toString("hex");
const TOKEN = `xoxb-${Date.now()}-7${hex(3)}-${hex(12)}`;
const SIGNING = `signing-secret-${hex(8)}`;
const API_KEY = `analytics-key-${hex(8)}`;
const KEYRING = `k1:${randomBytes(32).toString("base64")}`;
const SECRETS = [TOKEN, TOKEN.slice(-16), SIGNING, API_KEY, KEYRING.slice(3)];

let redis: PrivateRedis;
let emulator: Emulator;
let slack: SlackStandIn;
const procs: CliProcess[] = [];
let worker: CliProcess;
let deadWeb: CliProcess;
let deadWorker: CliProcess;
let deadWebUrl = "";
/** "Slack" that drops every connection: a port of our own, so no other server can answer on it. */
let unreachable: Server;

function env(slackApiUrl: string, queuePrefix: string): Record<string, string> {
  return {
    REDIS_URL: redis.url,
    ENCRYPTION_KEYS: KEYRING,
    ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
    ANALYTICS_TIMEOUT_MS: "1500",
    SLACK_SIGNING_SECRET: SIGNING,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_API_URL: slackApiUrl,
    // Port 0: the process takes a free one and logs it; a port picked here could be taken meanwhile.
    PORT: "0",
    HEALTH_PORT: "0",
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: "debug",
  };
}

/** A started process and the port it logged it listens on. */
async function started(command: "web" | "worker", e: Record<string, string>) {
  const p = startCli(command, e);
  procs.push(p);
  const line = await p.waitForLine(command === "web" ? /web listening/ : /worker started/);
  const port = Number(JSON.parse(line)[command === "web" ? "port" : "healthPort"]);
  return { p, url: `http://127.0.0.1:${port}/slack/events` };
}

const who = (userId: string = DEMO.member) => ({ teamId: DEMO.teamId, userId, channelId: DEMO.general });

async function command(text: string, userId?: string) {
  const sent = await slack.sendCommand({ ...who(userId), text });
  const reply = await slack.waitFor(() => slack.responses(sent.responseUrl)[0], { timeoutMs: 15_000 });
  return { sent, reply };
}

let users = 0;
/** A user the app has not cached yet, so its users.info call really goes out. */
function freshUser(): string {
  users += 1;
  const id = `U0LOGS${String(users).padStart(3, "0")}`;
  slack.addUser(DEMO.teamId, { id, tz: "Europe/Oslo" });
  return id;
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  emulator = await startEmulator({ apiKeys: [API_KEY] });
  slack = await startSlackStandIn({
    signingSecret: SIGNING,
    appUrl: "http://127.0.0.1:9/",
    workspaces: [defaultWorkspace({ botToken: TOKEN })],
    rateLimit: { enabled: false },
  });
  unreachable = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => unreachable.listen(0, "127.0.0.1", resolve));
  const deadSlack = `http://127.0.0.1:${(unreachable.address() as AddressInfo).port}/api/`;
  const [live, liveWorker, dead, deadW] = await Promise.all([
    started("web", env(slack.apiUrl, "{logs-live}")),
    started("worker", env(slack.apiUrl, "{logs-live}")),
    started("web", env(deadSlack, "{logs-dead}")),
    started("worker", env(deadSlack, "{logs-dead}")),
  ]);
  [worker, deadWeb, deadWorker] = [liveWorker.p, dead.p, deadW.p];
  deadWebUrl = dead.url;
  slack.setAppUrl(live.url);
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await slack?.close();
  await emulator?.close();
  await new Promise((resolve) => (unreachable ? unreachable.close(resolve) : resolve(undefined)));
  await redis?.destroy();
});

describe("secrets never reach the logs of the real processes", () => {
  let subId = "";

  it("connects the key and delivers a digest (the happy path, at debug level)", async () => {
    const before = slack.views().length;
    await slack.sendCommand({ ...who(DEMO.admin), text: "connect" });
    const view = await slack.waitFor(() => slack.views().slice(before)[0], { timeoutMs: 15_000 });
    const values = { [BLOCK.apiKey]: { [ACTION.apiKeyInput]: { type: "plain_text_input", value: API_KEY } } };
    await slack.sendViewSubmission({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { id: view.id },
      values,
    });
    const { reply } = await command("last7d");
    expect(JSON.stringify(reply.body)).toMatch(/findings/i);
    // An image chart, so the delivery uploads (the upload's failure is one of the paths logged).
    const sub = await command("subscribe daily 09:00 UTC chart:png", DEMO.admin);
    subId = /Id `([a-z0-9]+)`/.exec(JSON.stringify(sub.reply.body))?.[1] ?? "";
    expect(subId).not.toBe("");
  });

  it("Slack answering 5xx, 429 and invalid_auth to the web process", async () => {
    slack.injectHttp("users.info", 503, { times: 3 });
    await command("last7d", freshUser());
    slack.injectHttp("users.info", 429, { retryAfter: 1, times: 1 });
    await command("last7d", freshUser());
    slack.injectError("users.info", "invalid_auth", 3);
    await command("last7d", freshUser());
    slack.injectError("views.open", "invalid_trigger_id");
    await slack.sendCommand({ ...who(DEMO.admin), text: "connect" });
    await slack.waitFor(() => slack.calls({ method: "views.open", error: "invalid_trigger_id" })[0]);
    expect(slack.calls({ method: "users.info" }).map((c) => c.status)).toEqual(
      expect.arrayContaining([503, 429]),
    );
  });

  it("response_url refusing the reply (5xx, then used up)", async () => {
    slack.injectHttp("response_url", 500, { times: 2 });
    const sent = await slack.sendCommand({ ...who(), text: "last7d" });
    await slack.waitFor(() => slack.responses(sent.responseUrl).find((r) => r.status === 500));
    // Digests people ask for are computed and answered by the worker process (the interactive queue).
    await worker.waitForLine(/response_url_failed/);
  });

  it("the analytics service down, or refusing the key", async () => {
    emulator.inject({ kind: "status", status: 503 }, 10);
    await command("last14d");
    emulator.clearFaults();
    emulator.inject({ kind: "status", status: 401 }, 3);
    await command("last30d");
    emulator.clearFaults();
  });

  it("the worker's deliveries: upload failing, 5xx, 429 and invalid_auth on the post", async () => {
    const post = (error: string) => slack.calls((c) => c.method === "chat.postMessage" && c.error === error);
    slack.injectHttp("files.getUploadURLExternal", 500);
    await command(`send ${subId}`, DEMO.admin);
    await slack.waitFor(() => slack.calls({ method: "files.getUploadURLExternal", ok: false })[0], {
      timeoutMs: 15_000,
    });
    slack.injectHttp("chat.postMessage", 503);
    await command(`send ${subId}`, DEMO.admin);
    await slack.waitFor(() => post("service_unavailable")[0], { timeoutMs: 15_000 });
    slack.injectHttp("chat.postMessage", 429, { retryAfter: 1 });
    await command(`send ${subId}`, DEMO.admin);
    await slack.waitFor(() => post("ratelimited")[0], { timeoutMs: 15_000 });
    slack.injectError("chat.postMessage", "invalid_auth", 2);
    await command(`send ${subId}`, DEMO.admin);
    await slack.waitFor(() => post("invalid_auth")[0], { timeoutMs: 15_000 });
    await worker.waitForLine(/paused by a permanent delivery error/);
  });

  it("Slack unreachable, for a web and a worker process", async () => {
    await slack.sendCommand({ ...who(), text: "last7d", url: deadWebUrl });
    await deadWeb.waitForLine(/WebAPIRequestError/);
    const conn = new Redis(redis.url, { maxRetriesPerRequest: 2 });
    const producer = createSubscriptionRuntime({
      redis: conn,
      queuePrefix: "{logs-dead}",
      logger: silentLogger(),
    });
    await producer.subscriptions.sendNow({ teamId: DEMO.teamId }, subId);
    await deadWorker.waitForLine(/delivery job failed/);
    await producer.close();
    await conn.quit();
  });

  it("after all of it, no line of any process holds a secret, and every line is JSON", async () => {
    const codes = await Promise.all(procs.map((p) => p.stop()));
    expect(codes).toEqual([0, 0, 0, 0]);
    const lines = procs.flatMap((p) => p.lines).filter((l) => l.trim() !== "");
    expect(lines.length).toBeGreaterThan(50);
    const leaks = lines.filter((l) => SECRETS.some((s) => l.includes(s)));
    expect(leaks).toEqual([]);
    const notJson = lines.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    // The errors were really there to be logged.
    const all = lines.join("\n");
    const expected = [
      "WebAPIRequestError",
      "WebAPIHTTPError",
      "slack_network",
      "invalid_auth",
      "rate limiting",
      "chart upload failed",
      "response_url_failed",
      "unauthorized",
      "unavailable",
    ];
    expect(expected.filter((seen) => !all.includes(seen))).toEqual([]);
  });
});
