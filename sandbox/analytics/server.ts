import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHandler } from "graphql-http";
import { type Account, accountFor, BUILT_IN_KEYS, registerAccount } from "./accounts.ts";
import { parseAuthorization } from "./auth.ts";
import { utcToday } from "./days.ts";
import { createDocumentCache } from "./document-cache.ts";
import { replyWithFault } from "./fault-reply.ts";
import { createFaultPlan, type Fault, type FaultRates } from "./faults.ts";
import { flatHeaders, readBody, send, sendErrors } from "./http.ts";
import { rotateRootFields } from "./introspection.ts";
import { createAnalyticsSchema, type ResolverContext } from "./schema.ts";

export const GRAPHQL_PATH = "/analytics/graphql";
export const CONFIG_PATH = "/config.js";

export interface EmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Extra accounts with default sizes (the two built-in keys always exist). */
  apiKeys?: string[];
  /** Extra accounts with chosen sizes, e.g. 500 assets for external_select tests. */
  accounts?: { apiKey: string; assetCount?: number; scannerCount?: number }[];
  /** Today as `YYYY-MM-DD` in UTC; the default reads the system clock per request. */
  today?: () => string;
  /** Default true. False serves a schema whose `Insights` type has no `filters` field. */
  insightsFilters?: boolean;
}

export interface Emulator {
  /** `http://HOST:PORT` */
  appUrl: string;
  /** appUrl + `/analytics/graphql` */
  graphqlUrl: string;
  /** appUrl + `/config.js` */
  configUrl: string;
  /** The next `times` (default 1) GraphQL POSTs get this fault, first in first out. */
  inject(fault: Fault, times?: number): void;
  /** Background faults for load tests (seeded PRNG, so runs repeat). */
  setRates(rates: FaultRates): void;
  clearFaults(): void;
  /** GraphQL POSTs received, faulted ones included. */
  requestCount(): number;
  /** Bytes of the bodies sent in reply to GraphQL POSTs (their Content-Length; headers not counted). */
  responseBytes(): number;
  /**
   * GraphQL POSTs and reply bytes by the operation name their document declares (`Insights`,
   * `DriverSlices`, `Introspection`; `(none)` for an anonymous or unreadable one).
   */
  byOperation(): Record<string, { requests: number; bytes: number }>;
  /** The last GraphQL POST as received, for contract tests of clients. */
  lastRequest(): { headers: Record<string, string>; body: string } | undefined;
  /** Stops listening and ends every connection, hanging requests included. */
  close(): Promise<void>;
}

/** The operation name a request's document declares, for the emulator's own accounting. */
function operationOf(body: string): string {
  const m = /"query"\s*:\s*"\s*(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(body);
  return m?.[1] ?? "(none)";
}

function accountsOf(options: EmulatorOptions): Map<string, Account> {
  const accounts = new Map<string, Account>();
  for (const key of [...BUILT_IN_KEYS, ...(options.apiKeys ?? [])]) {
    accounts.set(key, accountFor(key) ?? registerAccount({ apiKey: key }));
  }
  for (const spec of options.accounts ?? []) accounts.set(spec.apiKey, registerAccount(spec));
  return accounts;
}

/**
 * Starts the analytics GraphQL emulator on node:http: `POST /analytics/graphql` (ApiKey auth first,
 * then faults, then graphql-http), `GET /config.js`, 404 elsewhere.
 *
 * @example
 * const emu = await startEmulator({ today: () => "2026-11-20" });
 * // POST emu.graphqlUrl with `Authorization: ApiKey ${DEMO_API_KEY}`
 * await emu.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const accounts = accountsOf(options);
  const today = options.today ?? (() => utcToday());
  const faults = createFaultPlan();
  let rotation = 1;
  let received = 0;
  let sentBytes = 0;
  const operations = new Map<string, { requests: number; bytes: number }>();
  let last: { headers: Record<string, string>; body: string } | undefined;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();

  const documents = createDocumentCache();
  const graphql = createHandler<IncomingMessage, ResolverContext, ResolverContext>({
    schema: createAnalyticsSchema({ withFilters: options.insightsFilters ?? true }),
    parse: documents.parse,
    validate: documents.validate,
    context: (req) => req.context,
    onOperation: (_req, _args, result) => {
      if (rotateRootFields(result, rotation)) rotation++;
    },
  });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handleGraphql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    received++;
    const op = operationOf(body);
    const tally = operations.get(op) ?? { requests: 0, bytes: 0 };
    operations.set(op, tally);
    tally.requests++;
    res.on("finish", () => {
      const bytes = Number(res.getHeader("content-length") ?? 0);
      sentBytes += bytes;
      tally.bytes += bytes;
    });
    last = { headers: flatHeaders(req), body };
    const decision = faults.next();
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (closed) return;
    if (decision.fault && decision.fault.kind !== "latency") return replyWithFault(res, decision.fault);

    const auth = parseAuthorization(req.headers.authorization);
    const account = auth.ok ? accounts.get(auth.apiKey) : undefined;
    if (!account) {
      const message = auth.ok ? "Unknown API key." : auth.message;
      return sendErrors(res, 401, message, {
        code: "UNAUTHENTICATED",
        headers: { "www-authenticate": "ApiKey" },
      });
    }
    const [text, init] = await graphql({
      method: "POST",
      url: req.url ?? GRAPHQL_PATH,
      headers: req.headers,
      body,
      raw: req,
      context: { account, today: today() },
    });
    send(res, init.status, text ?? "", init.headers ?? {});
  }

  async function route(req: IncomingMessage, res: ServerResponse, appUrl: string): Promise<void> {
    const path = new URL(req.url ?? "/", "http://emulator").pathname;
    if (path === GRAPHQL_PATH) {
      if (req.method !== "POST") {
        return sendErrors(res, 405, `${req.method} is not allowed here; send POST.`, {
          headers: { allow: "POST" },
        });
      }
      return handleGraphql(req, res);
    }
    if (path === CONFIG_PATH) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        return sendErrors(res, 405, `${req.method} is not allowed here; send GET.`, {
          headers: { allow: "GET, HEAD" },
        });
      }
      const config = { apiBaseUrl: appUrl, graphqlUrl: `${appUrl}${GRAPHQL_PATH}` };
      return send(res, 200, `window.__APP_CONFIG__ = ${JSON.stringify(config)};\n`, {
        "content-type": "application/javascript; charset=utf-8",
        "cache-control": "no-store",
      });
    }
    return sendErrors(res, 404, `No route for ${path}.`);
  }

  const server = createServer();
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  // A wildcard bind is reachable on loopback; URLs must name a host a client can dial.
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const appUrl = `http://${urlHost}:${port}`;
  server.on("request", (req, res) => {
    route(req, res, appUrl).catch((err: unknown) => {
      const tooLarge = (err as { code?: string }).code === "body_too_large";
      sendErrors(res, tooLarge ? 413 : 500, tooLarge ? "Request body too large." : "Emulator failure.");
    });
  });

  return {
    appUrl,
    graphqlUrl: `${appUrl}${GRAPHQL_PATH}`,
    configUrl: `${appUrl}${CONFIG_PATH}`,
    inject: (fault, times) => faults.inject(fault, times),
    setRates: (rates) => faults.setRates(rates),
    clearFaults: () => faults.clear(),
    requestCount: () => received,
    responseBytes: () => sentBytes,
    byOperation: () => Object.fromEntries([...operations].map(([k, v]) => [k, { ...v }])),
    lastRequest: () => (last ? { headers: { ...last.headers }, body: last.body } : undefined),
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
