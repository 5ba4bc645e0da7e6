import { AppError } from "../errors.ts";
import { post } from "../http-client.ts";

/**
 * A small Slack Web API caller for the worker. Unlike the SDK's WebClient it never retries or waits
 * on its own: the delivery job decides (BullMQ backoff for 5xx, `worker.rateLimit` for 429), so a
 * rate limit pauses the queue instead of holding a worker slot asleep.
 */

/** Why a call failed: Slack's `error` string, an HTTP status, or the network. */
export class SlackCallError extends AppError<"slack_error" | "slack_http" | "slack_network"> {
  readonly method: string;
  /** Slack's `error` (`is_archived`, `ratelimited`, …) or `http_<status>` / `network`. */
  readonly slackError: string;
  readonly status: number | undefined;
  /** From Retry-After on 429. */
  readonly retryAfterMs: number | undefined;
  /** What Slack said about an `invalid_blocks` (its `errors`), each ending in a json-pointer. */
  readonly messages: readonly string[];
  constructor(
    code: "slack_error" | "slack_http" | "slack_network",
    method: string,
    slackError: string,
    o: { status?: number; retryAfterMs?: number; cause?: unknown; messages?: readonly string[] } = {},
  ) {
    super(code, `Slack ${method} failed: ${slackError}`, {
      cause: o.cause,
      details: { method, slackError, status: o.status },
    });
    this.method = method;
    this.slackError = slackError;
    this.status = o.status;
    this.retryAfterMs = o.retryAfterMs;
    this.messages = o.messages ?? [];
  }
}

/** The strings of a reply's `errors` (or `response_metadata.messages`), for an `invalid_blocks`. */
function replyMessages(body: Record<string, unknown>): string[] {
  const meta = body.response_metadata as { messages?: unknown } | undefined;
  const list = Array.isArray(body.errors) ? body.errors : Array.isArray(meta?.messages) ? meta.messages : [];
  return list.filter((m): m is string => typeof m === "string").slice(0, 50);
}

/** The two ways the worker talks to Slack. */
export interface SlackApi {
  /** Calls `method` with a bot token; resolves with the reply when `ok`, throws SlackCallError otherwise. */
  call(token: string, method: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** POSTs file bytes to an upload URL from files.getUploadURLExternal. */
  upload(url: string, bytes: Uint8Array, contentType: string): Promise<void>;
}

/** Options of createSlackApi. */
export interface SlackApiOptions {
  /** Base URL ending in "/", e.g. `https://slack.com/api/` or the stand-in's. */
  apiUrl: string;
  /** Per-call timeout [10 s]. */
  timeoutMs?: number;
}

function retryAfterMs(raw: string | string[] | undefined): number | undefined {
  const sec = typeof raw === "string" ? Number(raw) : Number.NaN;
  return Number.isFinite(sec) && sec >= 0 ? Math.ceil(sec * 1000) : undefined;
}

// The worker's message calls, which Slack reads as JSON: a digest's blocks go as they are, not
// JSON-encoded again inside a form and then percent-encoded (a third of the call's CPU). Every other
// method gets a form, which every method reads (some, like the upload reservation, only a form).
const JSON_METHODS: ReadonlySet<string> = new Set(["chat.postMessage", "chat.update", "chat.postEphemeral"]);

/** Slack's form encoding: nested values as JSON strings (what the SDKs send; every method accepts it). */
function formBody(args: Record<string, unknown>): string {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    body.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return body.toString();
}

/**
 * @example
 * const slack = createSlackApi({ apiUrl: config.slack.apiUrl });
 * const { ts } = await slack.call(botToken, "chat.postMessage", { channel, text, blocks });
 */
export function createSlackApi(options: SlackApiOptions): SlackApi {
  const base = options.apiUrl.endsWith("/") ? options.apiUrl : `${options.apiUrl}/`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  // Over node:http with kept-alive connections: a storm makes thousands of these calls, and the
  // global fetch spends several times the CPU on each (see http-client.ts).
  async function send(
    method: string,
    url: string,
    body: string | Uint8Array,
    headers: Record<string, string>,
  ) {
    try {
      return await post(url, body, headers, timeoutMs);
    } catch (cause) {
      throw new SlackCallError("slack_network", method, "network", { cause });
    }
  }

  return {
    async call(token, method, args) {
      const json = JSON_METHODS.has(method);
      const res = await send(method, `${base}${method}`, json ? JSON.stringify(args) : formBody(args), {
        authorization: `Bearer ${token}`,
        "content-type": json ? "application/json; charset=utf-8" : "application/x-www-form-urlencoded",
      });
      if (res.status !== 200) {
        const error = res.status === 429 ? "ratelimited" : `http_${res.status}`;
        throw new SlackCallError("slack_http", method, error, {
          status: res.status,
          retryAfterMs: retryAfterMs(res.headers["retry-after"]),
        });
      }
      let body: unknown = null;
      try {
        body = JSON.parse(res.text);
      } catch {
        // not JSON: reported below as bad_response
      }
      if (!body || typeof body !== "object")
        throw new SlackCallError("slack_http", method, "bad_response", { status: 200 });
      const reply = body as Record<string, unknown>;
      if (reply.ok !== true)
        throw new SlackCallError("slack_error", method, String(reply.error ?? "unknown_error"), {
          status: 200,
          messages: replyMessages(reply),
        });
      return reply;
    },
    async upload(url, bytes, contentType) {
      const res = await send("upload", url, bytes, { "content-type": contentType });
      if (res.status !== 200)
        throw new SlackCallError("slack_http", "upload", `http_${res.status}`, { status: res.status });
    },
  };
}
