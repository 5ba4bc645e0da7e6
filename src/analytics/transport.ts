import { ClientError, GraphQLClient } from "graphql-request";
import { AnalyticsError, codeForStatus, parseRetryAfter } from "./analytics-errors.ts";
import { networkReason } from "./discovery.ts";
import { sanitizeText } from "./sanitize.ts";

export interface PostRequest {
  url: string;
  /** For messages: the endpoint without credentials. */
  shownUrl: string;
  apiKey: string;
  query: string;
  variables: Record<string, unknown>;
  timeoutMs: number;
  fetch: typeof fetch;
  now: () => number;
}

const MAX_MESSAGES = 5;

/**
 * One GraphQL POST through graphql-request, returning the reply's `data` (unvalidated) or throwing
 * an AnalyticsError. graphql-request's own errors embed the request and the raw reply in their
 * message, so none of them is passed on: every message here is rebuilt from sanitized parts.
 */
export async function postGraphql(req: PostRequest): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), req.timeoutMs);
  // Knowing whether headers arrived separates "could not reach" from "sent garbage".
  let responded = false;
  const trackingFetch: typeof fetch = async (input, init) => {
    const res = await req.fetch(input, init);
    responded = true;
    return res;
  };
  const client = new GraphQLClient(req.url, {
    fetch: trackingFetch,
    // The contract's body is exactly {query, variables}.
    excludeOperationName: true,
    headers: {
      Authorization: `ApiKey ${req.apiKey}`,
      "Content-Type": "application/json",
      Accept: "application/json",
    },
  });
  try {
    const reply = await client.rawRequest<unknown>({
      query: req.query,
      variables: req.variables,
      signal: controller.signal,
    });
    return reply.data;
  } catch (err) {
    throw toAnalyticsError(err, { ...req, responded, timedOut: controller.signal.aborted });
  } finally {
    clearTimeout(timer);
  }
}

interface Failure {
  shownUrl: string;
  apiKey: string;
  timeoutMs: number;
  now: () => number;
  responded: boolean;
  timedOut: boolean;
}

function toAnalyticsError(err: unknown, f: Failure): AnalyticsError {
  const endpoint = f.shownUrl;
  if (f.timedOut)
    return new AnalyticsError("unavailable", `Analytics service timed out after ${f.timeoutMs} ms`, {
      endpoint,
    });
  if (err instanceof ClientError) {
    const { status } = err.response;
    const graphqlMessages = messagesOf(err.response.errors, f.apiKey);
    if (status >= 200 && status < 300) {
      if (graphqlMessages.length === 0)
        return new AnalyticsError("bad_response", "Analytics service sent a malformed errors list", {
          status,
          endpoint,
        });
      return new AnalyticsError(
        "graphql",
        `Analytics service answered with errors: ${graphqlMessages.join("; ")}`,
        {
          status,
          endpoint,
          graphqlMessages,
          failedFields: fieldsOf(err.response.errors),
        },
      );
    }
    const code = codeForStatus(status);
    const retryAfterMs =
      code === "rate_limited"
        ? parseRetryAfter(err.response.headers?.get("retry-after"), f.now())
        : undefined;
    return new AnalyticsError(code, statusMessage(code, status), {
      status,
      endpoint,
      retryAfterMs,
      graphqlMessages,
    });
  }
  if (!f.responded)
    return new AnalyticsError(
      "unavailable",
      `Could not reach the analytics service: ${sanitizeText(networkReason(err), [f.apiKey])}`,
      { endpoint },
    );
  return new AnalyticsError("bad_response", "Analytics service sent a reply that is not GraphQL JSON", {
    endpoint,
  });
}

function statusMessage(code: string, status: number): string {
  if (code === "unauthorized") return `Analytics service rejected the API key (HTTP ${status})`;
  if (code === "rate_limited") return "Analytics service is rate limiting requests (HTTP 429)";
  if (code === "unavailable") return `Analytics service is unavailable (HTTP ${status})`;
  return `Analytics service refused the request (HTTP ${status})`;
}

/** The root fields (our own aliases) a GraphQL errors array names in its paths; other text is dropped. */
function fieldsOf(errors: unknown): string[] | undefined {
  if (!Array.isArray(errors)) return undefined;
  const fields = new Set<string>();
  for (const e of errors) {
    const head =
      e !== null && typeof e === "object" && "path" in e && Array.isArray(e.path) ? e.path[0] : undefined;
    if (typeof head === "string" && /^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(head)) fields.add(head);
  }
  return fields.size > 0 ? [...fields] : undefined;
}

/** Sanitized `message`s of a GraphQL errors array; anything not shaped like one yields none. */
function messagesOf(errors: unknown, apiKey: string): string[] {
  if (!Array.isArray(errors)) return [];
  return errors
    .flatMap((e: unknown) =>
      e !== null && typeof e === "object" && "message" in e && typeof e.message === "string"
        ? [e.message]
        : [],
    )
    .slice(0, MAX_MESSAGES)
    .map((m) => sanitizeText(m, [apiKey]));
}
