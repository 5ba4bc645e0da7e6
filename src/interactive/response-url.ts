import { trace } from "@opentelemetry/api";
import { AppError } from "../errors.ts";
import { postJson } from "../http-client.ts";

/** Slack: a response_url takes five posts within thirty minutes of the request. */
export const RESPONSE_URL_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60_000;
/** Posts this close to the end are not tried: the answer would race the expiry. */
const EXPIRY_MARGIN_MS = 30_000;

/** Options of responseUrlPoster. */
export interface ResponseUrlOptions {
  url: string;
  /** When Slack sent the request (epoch ms): the url's thirty minutes run from then. */
  receivedAt: number;
  /** Uses already spent before this poster (a "busy" note). */
  used: number;
  now?: () => number;
  timeoutMs?: number;
}

export interface ResponseUrlPoster {
  /** Posts a message; throws `response_url_gone` when the url is used up or expired (then answer another way). */
  post(message: Record<string, unknown>): Promise<void>;
  readonly used: number;
}

/**
 * A response_url as Slack's rules allow it: five posts within thirty minutes. It counts its own
 * posts and refuses locally once the url cannot take another, so the caller can fall back to the
 * Web API instead of losing the answer.
 */
export function responseUrlPoster(o: ResponseUrlOptions): ResponseUrlPoster {
  const now = o.now ?? Date.now;
  const timeoutMs = o.timeoutMs ?? 10_000;
  let used = o.used;
  const gone = (why: string) =>
    new AppError("response_url_gone", `The response_url can't be used any more (${why}).`);
  return {
    get used() {
      return used;
    },
    async post(message) {
      if (used >= RESPONSE_URL_USES) throw gone("used_url");
      if (now() - o.receivedAt > RESPONSE_URL_TTL_MS - EXPIRY_MARGIN_MS) throw gone("expired_url");
      const res = await postJson(o.url, JSON.stringify(message), timeoutMs);
      // On the answer's span, when traced: the post's status, never the url (a capability).
      trace.getActiveSpan()?.addEvent("slack.response_url", { "http.response.status_code": res.status });
      const text = res.text;
      if (res.ok) {
        used++;
        return;
      }
      // Slack answers 404 with used_url / expired_url (or invalid_url) once a url is spent.
      if (res.status === 404 || res.status === 410) {
        used = RESPONSE_URL_USES;
        throw gone(/used_url|expired_url|invalid_url/.exec(text)?.[0] ?? `HTTP ${res.status}`);
      }
      const code = /"error"\s*:\s*"([a-z_]{1,40})"/.exec(text)?.[1];
      throw new AppError(
        "response_url_failed",
        `Slack refused the reply (${code ?? `HTTP ${res.status}`}).`,
        {
          details: { status: res.status, slackError: code },
        },
      );
    },
  };
}
