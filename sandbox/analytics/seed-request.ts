import { request } from "node:http";

/** The contract's insights operation, verbatim (single line), declaring exactly the seed's variables. */
export const SEED_INSIGHTS_QUERY =
  "query Insights($from_day: Date, $to_day: Date, $scannerIdsFilter: [String!], $assetIdsFilter: [String!], $max_rules: Int) { insights(fromDay: $from_day, toDay: $to_day, maxRules: $max_rules, filters: {scannerIds: $scannerIdsFilter, assetIds: $assetIdsFilter}) { dailyMetric { timeStamp violations findings } dailyActivity { timeStamp fixedViolations mergedViolations } summary { findings { previous current } violations { previous current } fixes mergedViolations } filters { scannerId { value displayValue } assetId { value displayValue } } } }";

/** The contract's introspection request: root field names of query and mutation types. */
export const SEED_INTROSPECTION_QUERY =
  "{ __schema { queryType { fields { name } } mutationType { fields { name } } } }";

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One HTTP exchange over node:http with exactly the given headers (nothing normalised, so tests
 * can send malformed `Authorization` values). For tests and smoke checks of the emulator.
 */
export function rawHttp(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? "GET", headers: init.headers, signal: init.signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/**
 * POSTs a GraphQL body the way the contract shows: single-line JSON, `Authorization: ApiKey <key>`,
 * `Content-Type` and `Accept: application/json`, `Content-Length`. `authorization` overrides the
 * header value verbatim; `null` leaves it out.
 */
export function seedPost(
  url: string,
  body: { query: string; variables?: Record<string, unknown> },
  auth: { apiKey: string } | { authorization: string | null },
  signal?: AbortSignal,
): Promise<RawReply> {
  const text = JSON.stringify({ query: body.query, variables: body.variables ?? {} });
  const authorization = "apiKey" in auth ? `ApiKey ${auth.apiKey}` : auth.authorization;
  const headers: Record<string, string> = {
    ...(authorization === null ? {} : { Authorization: authorization }),
    "Content-Type": "application/json",
    Accept: "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
  };
  return rawHttp(url, { method: "POST", headers, body: text, ...(signal ? { signal } : {}) });
}
