import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { formatKeyring, generateKeyring } from "../../sandbox/product.ts";
import { freePort, type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO, DEMO_APP_TOKEN, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import { SANDBOX_SIGNING_SECRET } from "../../sandbox/stack.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { type CliProcess, startCli } from "./cli-process.ts";
import { apiKeyValues } from "./helpers.ts";

/**
 * docs/try-it.md, walked against the stand-ins: Redis and the analytics emulator started as the page
 * starts them, the Slack stand-in's Socket Mode in Slack's place, and `insights-digest start` run in a
 * directory holding the page's own `.env` block, its placeholders filled with the stand-in's tokens, the
 * private Redis's port, the emulator's port and a fresh keyring. Two variables come from outside the
 * file: SLACK_API_URL, which points the app at the stand-in instead of slack.com, and PORT, since 3000
 * may be taken on a shared machine.
 */

const PAGE = readFileSync(resolve(import.meta.dirname, "../../docs/try-it.md"), "utf8");

/** The page's `.env` block, as the reader pastes it. */
function pageEnv(): Record<string, string> {
  const block = /```dotenv\n([\s\S]*?)```/.exec(PAGE)?.[1];
  if (block === undefined) throw new Error("docs/try-it.md has no ```dotenv block");
  return Object.fromEntries(
    Object.entries(parseEnv(block)).flatMap(([k, v]) => (v === undefined ? [] : [[k, v]])),
  );
}

/** The URL with its port replaced (the page's fixed ports are free ones here). */
const onPort = (url: string, port: number) => {
  const u = new URL(url);
  u.port = String(port);
  return u.href.replace(/\/$/, "");
};

const admin = { teamId: DEMO.teamId, userId: DEMO.admin, channelId: DEMO.general };
const member = { ...admin, userId: DEMO.member };

let redis: PrivateRedis | undefined;
let slack: SlackStandIn | undefined;
let emulator: CliProcess | undefined;
let app: CliProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), "try-it-"));

afterAll(async () => {
  await app?.stop();
  await emulator?.stop();
  await slack?.close();
  await redis?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("docs/try-it.md against the Slack stand-in's Socket Mode", () => {
  it("names the settings the walk-through needs, and only those", () => {
    expect(Object.keys(pageEnv()).sort()).toEqual([
      "ANALYTICS_APP_URL",
      "ENCRYPTION_KEYS",
      "REDIS_URL",
      "SLACK_APP_TOKEN",
      "SLACK_BOT_TOKEN",
      "SLACK_SIGNING_SECRET",
    ]);
    expect(PAGE).toContain("npx insights-digest emulator --port 4000");
    expect(PAGE).toContain("npx insights-digest start");
    expect(PAGE).toContain(`paste \`${DEMO_API_KEY}\``);
    expect(PAGE).toContain('"msg":"web started in Socket Mode"');
  });

  it("starts as the page says, connects over the socket, and answers /insights last30d", async () => {
    const page = pageEnv();
    redis = await startPrivateRedis();
    slack = await startSlackStandIn({
      signingSecret: SANDBOX_SIGNING_SECRET,
      appUrl: "http://127.0.0.1:9/",
      transport: "socket",
    });

    // Step 2: the emulator, on a free port instead of 4000.
    const emulatorPort = await freePort();
    emulator = startCli("emulator", {}, ["--port", String(emulatorPort)]);
    const appUrl = (await emulator.waitForLine(/App URL:/, 30_000)).split("App URL:")[1]?.trim() ?? "";
    expect(appUrl).toBe(onPort(page.ANALYTICS_APP_URL as string, emulatorPort));

    // Step 4: the page's .env with the reader's values pasted in; a line the page lacks stays absent.
    const pasted: Record<string, string> = {
      SLACK_APP_TOKEN: DEMO_APP_TOKEN,
      SLACK_BOT_TOKEN: DEMO.botToken,
      SLACK_SIGNING_SECRET: SANDBOX_SIGNING_SECRET,
      REDIS_URL: onPort(page.REDIS_URL ?? "", redis.port),
      ANALYTICS_APP_URL: appUrl,
      ENCRYPTION_KEYS: formatKeyring(generateKeyring(1)),
    };
    const env = Object.fromEntries(Object.entries(page).map(([k, v]) => [k, pasted[k] ?? v]));
    expect(env.REDIS_URL).toBe(redis.url);
    writeFileSync(
      join(dir, ".env"),
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n"),
    );

    // Step 5: start, in the directory holding .env.
    const port = await freePort();
    app = startCli("start", { SLACK_API_URL: slack.apiUrl, PORT: String(port) }, [], { cwd: dir });
    await app.waitForLine(/"msg":"web started in Socket Mode"/, 90_000);
    await slack.waitForSocket(30_000);
    await slack.waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true,
      { timeoutMs: 60_000, what: "/readyz answering 200" },
    );

    // Step 6: connect the demo key through the modal, then ask for a digest, all over the socket.
    const views = slack.views().length;
    const opened = await slack.sendCommand({ ...admin, text: "connect" });
    expect(opened.status).toBe(200);
    const modal = await slack.waitFor(
      () =>
        slack
          ?.views()
          .slice(views)
          .find((v) => v.type === "modal"),
      {
        timeoutMs: 20_000,
      },
    );
    const saved = await slack.sendViewSubmission({
      teamId: admin.teamId,
      userId: admin.userId,
      view: { id: modal.id },
      values: apiKeyValues(DEMO_API_KEY),
    });
    expect(saved.status).toBe(200);

    const sent = await slack.sendCommand({ ...member, text: "last30d" });
    expect(sent.status).toBe(200);
    expect(sent.ackMs).toBeLessThan(3000);
    const reply = await slack.waitFor(() => slack?.responses(sent.responseUrl)[0], { timeoutMs: 30_000 });
    const body = reply.body as { text?: string; response_type?: string };
    expect(body.response_type).toBe("ephemeral");
    expect(body.text).toMatch(/findings/);
    expect(checkMessage(body as never)).toEqual([]);

    // Everything went over the socket: the envelopes, each acked once; nothing was POSTed to the app.
    const envelopes = slack.envelopes();
    expect(envelopes.filter((e) => e.type === "slash_commands")).toHaveLength(2);
    expect(envelopes.every((e) => e.acks === 1)).toBe(true);
    expect(await app.stop()).toBe(0);
  }, 240_000);
});
