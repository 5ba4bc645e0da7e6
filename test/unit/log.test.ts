import { webApi } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { SlackCallError } from "../../src/jobs/slack-api.ts";
import { censorSecrets, redactText, withLogContext } from "../../src/log.ts";
import { boltLogger } from "../../src/slack/bolt-logger.ts";
import { captureLog } from "../fixtures/log-capture.ts";

const capture = () => captureLog("debug");

describe("logger", () => {
  it("adds the context's ids to every line inside it, also across awaits", async () => {
    const { lines, logger } = capture();
    await withLogContext({ jobId: "42", sub: "-.T1.abc" }, async () => {
      logger.info("start");
      await new Promise((r) => setTimeout(r, 5));
      logger.child({ component: "cache" }).warn("inner");
    });
    logger.info("outside");
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.msg, l.jobId])).toEqual([
      ["start", "42"],
      ["inner", "42"],
      ["outside", undefined],
    ]);
  });

  it("redacts secrets by field name and by token shape", async () => {
    const { lines, logger } = capture();
    logger.info({ apiKey: "pk-live-123", headers: { authorization: "ApiKey pk-live-123" } }, "saved");
    logger.error({ err: new Error("call failed with xoxb-1234-5678-abcdef") }, "Bearer xoxp-9-9-9 rejected");
    await new Promise((r) => setImmediate(r));
    const text = JSON.stringify(lines);
    expect(text).not.toContain("pk-live-123");
    expect(text).not.toContain("xoxb-1234-5678-abcdef");
    expect(text).not.toContain("xoxp-9-9-9");
    expect(redactText("Authorization: ApiKey abc.def")).toBe("Authorization: ApiKey[redacted]");
  });

  it("censors secret-named fields down to four levels, in arrays, child bindings and errors' details", async () => {
    const { lines, logger } = capture();
    const line = {
      apiKey: "k0-secret",
      job: { token: "k1-secret", items: [{ refresh_token: "k2-secret", keep: "visible-1" }] },
      err: new AppError("bad", "failed", { details: { client_secret: "k3-secret", status: 400 } }),
      req: { config: { headers: { Authorization: "k4-secret", accept: "visible-2" } } },
      a: { b: { c: { d: { password: "k5-secret" } } } },
      http: { _header: "POST / HTTP/1.1 k6-secret" },
    };
    logger.child({ teamId: "T1", secret: "k7-secret" }).info(line, "with secrets");
    await new Promise((r) => setImmediate(r));
    const text = JSON.stringify(lines);
    for (let i = 0; i <= 7; i++) expect(text).not.toContain(`k${i}-secret`);
    expect(text).toContain("visible-1");
    expect(text).toContain("visible-2");
    expect(lines[0]).toMatchObject({
      teamId: "T1",
      apiKey: "[redacted]",
      err: { code: "bad", details: { status: 400 } },
    });
    // The caller's object is left as it was; one without a secret is not even copied.
    expect(line.job.token).toBe("k1-secret");
    const clean = { teamId: "T1", nested: { ms: 3, list: [1, 2] } };
    expect(censorSecrets(clean)).toBe(clean);
  });
});

/** A secret with no token shape: only structure (what the serializer keeps) can keep it out. */
const PLAIN = "plain-secret-4d1f9c";
const TOKEN = "xoxb-111-222-known0token";

/** Errors as the HTTP clients of the app build them, each holding the secrets somewhere. */
function httpErrors(): unknown[] {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), {
    code: "ECONNREFUSED",
    errno: -111,
    syscall: "connect",
  });
  const fetchFailed = new TypeError("fetch failed", { cause: refused });
  const axiosLike = Object.assign(new Error("Request failed with status code 503"), {
    config: { headers: { Authorization: `Bearer ${TOKEN}`, "X-Plain": PLAIN }, data: `token=${TOKEN}` },
    request: {
      _header: `POST /api/chat.postMessage HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\nX: ${PLAIN}`,
    },
    response: { status: 503, headers: { "set-cookie": PLAIN }, data: { token: PLAIN } },
  });
  return [
    new webApi.WebAPIRequestError(fetchFailed as Error),
    new webApi.WebAPIHTTPError(
      503,
      "Service Unavailable",
      { "set-cookie": PLAIN, "x-echo": TOKEN },
      JSON.stringify({ secret: PLAIN }),
    ),
    new webApi.WebAPIPlatformError({
      ok: false,
      error: "invalid_auth",
      needed: "chat:write",
      response_metadata: { messages: [PLAIN] },
    } as never),
    new webApi.WebAPIRateLimitedError(7),
    axiosLike,
    new SlackCallError("slack_network", "chat.postMessage", "network", { cause: axiosLike }),
    new SlackCallError("slack_http", "chat.postMessage", "ratelimited", { status: 429, retryAfterMs: 2000 }),
  ];
}

describe("logging HTTP client errors", () => {
  it("keeps what went wrong (type, codes, status, Slack's error) and drops headers, requests, bodies and configs", async () => {
    const { lines, logger } = capture();
    for (const err of httpErrors()) logger.warn({ err }, "slack call failed");
    await new Promise((r) => setImmediate(r));
    const text = JSON.stringify(lines);
    expect(text).not.toContain(PLAIN);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("known0token");
    const errs = lines.map((l) => l.err as Record<string, unknown>);
    expect(errs[0]).toMatchObject({ type: "WebAPIRequestError", code: "slack_webapi_request_error" });
    expect(JSON.stringify(errs[0])).toContain("ECONNREFUSED");
    expect(errs[1]).toMatchObject({ type: "WebAPIHTTPError", statusCode: 503 });
    expect(errs[2]).toMatchObject({ slack: { error: "invalid_auth", needed: "chat:write" } });
    expect(errs[3]).toMatchObject({ retryAfter: 7 });
    expect(errs[6]).toMatchObject({ slackError: "ratelimited", status: 429, retryAfterMs: 2000 });
  });

  it("routes Bolt's and the WebClient's own lines through pino as JSON, errors through the same serializer", async () => {
    const { lines, logger } = capture();
    const bolt = boltLogger(logger);
    bolt.warn("http request failed", `connect ECONNREFUSED for Bearer ${TOKEN}`);
    bolt.error("An API error occurred", httpErrors()[1]);
    bolt.debug(`http request body: {"token":"${PLAIN}","channel":"C1"}`);
    // Socket Mode at debug: the raw envelope of a view submission holds what the person typed.
    const typed = "typed-platform-key-0123";
    bolt.debug(
      `Received a message on the WebSocket: {"envelope_id":"e1","payload":{"view":{"state":{"values":{"k":{"v":{"value":"${typed}"}}}}}}}`,
    );
    bolt.debug("an object beside the text", { view: { state: { values: { k: { v: { value: typed } } } } } });
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.level, l.component])).toEqual([
      ["warn", "bolt"],
      ["error", "bolt"],
      ["debug", "bolt"],
      ["debug", "bolt"],
      ["debug", "bolt"],
    ]);
    expect(lines[3]?.msg).toMatch(
      /^Received a message on the WebSocket: \[payload of \d+ characters omitted\]$/,
    );
    expect(lines[4]?.detail).toEqual([{ keys: ["view"] }]);
    expect(JSON.stringify(lines)).not.toContain(typed);
    expect(lines[1]?.err).toMatchObject({ statusCode: 503 });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(PLAIN);
    expect(text).not.toContain(TOKEN);
  });
});
