import { AnalyticsError, codeForStatus } from "./analytics-errors.ts";
import { safeUrl, sanitizeText } from "./sanitize.ts";

/** Quoted string literals of a JS file (single, double, backtick), escapes allowed. */
const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\\r\n])*)\1/g;
/** Unquoted absolute URLs, for configs that are not plain JS objects. */
const BARE_URL = /https?:\/\/[^\s"'`<>\\,;)}\]]+/g;

/**
 * Picks the endpoint of `service` from the text of an app's config.js.
 *
 * The contract: take the URL that ends in `graphql`; a service's endpoint is
 * `{base_url}/<service>/graphql`. A URL that already is `…/<service>/graphql` is used as is;
 * otherwise the first `…/graphql` URL gives `base_url` (the URL without its last segment).
 * Root-relative URLs resolve against the app URL. Returns undefined when nothing fits.
 *
 * @example
 * endpointFromConfig('window.cfg = {api: "https://api.example.com/graphql"}', "https://app.example.com", "analytics")
 * // → "https://api.example.com/analytics/graphql"
 */
export function endpointFromConfig(configJs: string, appUrl: string, service: string): string | undefined {
  const texts = [
    ...[...configJs.matchAll(LITERAL)].map((m) => m[2] ?? ""),
    ...(configJs.match(BARE_URL) ?? []),
  ];
  const urls = texts.flatMap((t) => graphqlUrl(t.replace(/\\\//g, "/").trim(), appUrl));
  const own = urls.find((u) => u.pathname.split("/").at(-2) === service);
  if (own) return own.href;
  const first = urls[0];
  if (!first) return undefined;
  const base = first.pathname.slice(0, first.pathname.lastIndexOf("/"));
  return new URL(`${base}/${encodeURIComponent(service)}/graphql`, first.origin).href;
}

function graphqlUrl(text: string, appUrl: string): URL[] {
  if (!/^(https?:)?\//i.test(text)) return [];
  try {
    const u = new URL(text, appUrl);
    if (u.protocol !== "http:" && u.protocol !== "https:") return [];
    u.pathname = u.pathname.replace(/\/+$/, "");
    u.search = "";
    u.hash = "";
    return u.pathname.split("/").at(-1)?.toLowerCase() === "graphql" ? [u] : [];
  } catch {
    return [];
  }
}

/**
 * Downloads `{appUrl}/config.js` and returns the endpoint of `service` (see endpointFromConfig).
 * One try, bounded by `timeoutMs`; the client adds retries. Errors use the client's codes.
 */
export async function discoverEndpoint(
  appUrl: string,
  service: string,
  fetchImpl: typeof fetch = globalThis.fetch,
  timeoutMs = 8000,
): Promise<string> {
  const configUrl = new URL("config.js", appUrl.endsWith("/") ? appUrl : `${appUrl}/`).href;
  const shown = safeUrl(configUrl);
  let text: string;
  let status: number;
  try {
    const res = await fetchImpl(configUrl, { signal: AbortSignal.timeout(timeoutMs) });
    status = res.status;
    text = await res.text();
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    throw new AnalyticsError(
      "unavailable",
      timedOut
        ? `Timed out after ${timeoutMs} ms fetching ${shown}`
        : `Could not reach ${shown}: ${sanitizeText(networkReason(err))}`,
      { endpoint: shown },
    );
  }
  if (status < 200 || status >= 300)
    throw new AnalyticsError(codeForStatus(status), `${shown} answered HTTP ${status}`, {
      status,
      endpoint: shown,
    });
  const endpoint = endpointFromConfig(text, configUrl, service);
  if (!endpoint)
    throw new AnalyticsError("bad_response", `${shown} holds no URL ending in graphql`, { endpoint: shown });
  if (downgrades(configUrl, endpoint))
    throw new AnalyticsError(
      "bad_response",
      `${shown} names an http:// GraphQL endpoint (${safeUrl(endpoint)}) for an https:// app: the API key would travel in clear text, so it is refused. Set ANALYTICS_GRAPHQL_URL to the endpoint's https:// address.`,
      { endpoint: safeUrl(endpoint) },
    );
  return endpoint;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * True when an https:// app's config names a plain-http endpoint: every request carries the API key,
 * and the app's TLS would protect nothing. A loopback endpoint never leaves the machine.
 */
export function downgrades(appUrl: string, endpoint: string): boolean {
  const app = new URL(appUrl);
  const api = new URL(endpoint);
  return app.protocol === "https:" && api.protocol === "http:" && !LOOPBACK.has(api.hostname.toLowerCase());
}

/** The most specific reason of a fetch failure (undici puts ECONNREFUSED etc. in `cause`). */
export function networkReason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const code = cause && "code" in cause ? String(cause.code) : undefined;
  return code ?? cause?.message ?? err.message;
}
