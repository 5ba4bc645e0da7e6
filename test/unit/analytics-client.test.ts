import { describe, expect, it } from "vitest";
import { AnalyticsError, createAnalyticsClient } from "../../src/analytics/index.ts";
import { oneDayInsights, wholeAccount } from "../fixtures/analytics-contract.ts";

/*
 * The client against a scripted `fetch` (an injected collaborator, not one of our modules): fast
 * checks of request shape, retries, caching and error mapping. The same paths run over real HTTP
 * against the emulator in test/integration/analytics-client.test.ts.
 */

const KEY = "unit-key-0123456789";
const URL_ = "https://api.example.com/analytics/graphql";

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

type Script = (req: Seen, n: number) => Response | Promise<Response>;

function scripted(script: Script) {
  const seen: Seen[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const req = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : "",
    };
    seen.push(req);
    return script(req, seen.length);
  };
  return { seen, fetchImpl };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const introspection = (filters: boolean) => ({
  data: {
    __schema: {
      queryType: {
        fields: [
          {
            name: "insights",
            type: {
              fields: null,
              ofType: { fields: [{ name: "summary" }, ...(filters ? [{ name: "filters" }] : [])] },
            },
          },
        ],
      },
      mutationType: null,
    },
  },
});

const insightsData = {
  data: {
    insights: {
      ...oneDayInsights("2026-11-01", { findings: 2, violations: 1, fixes: 0, merged: 1 }),
      filters: { scannerId: [], assetId: [] },
    },
  },
};

/** Answers introspection and insights like a healthy service, unless `override` answers first. */
type Override = (req: Seen, n: number) => Response | undefined;

function service(filters = true, override?: Override): Script {
  return (req, n) => {
    const r = override?.(req, n);
    if (r) return r;
    return JSON.parse(req.body).query.includes("__schema")
      ? json(introspection(filters))
      : json(insightsData);
  };
}

function client(fetchImpl: typeof fetch, extra: Partial<Parameters<typeof createAnalyticsClient>[0]> = {}) {
  const sleeps: number[] = [];
  const c = createAnalyticsClient({
    graphqlUrl: URL_,
    fetch: fetchImpl,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    retry: { attempts: 3, baseMs: 10, maxMs: 100, maxTotalMs: 60_000 },
    ...extra,
  });
  return { c, sleeps };
}

const week = { fromDay: "2026-11-01", toDay: "2026-11-07" };

describe("analytics client (scripted fetch)", () => {
  it("POSTs single-line {query, variables} JSON with the contract's headers", async () => {
    const { seen, fetchImpl } = scripted(service());
    await client(fetchImpl).c.insights(KEY, week);
    const req = seen.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe(URL_);
    expect(req.headers.get("authorization")).toBe(`ApiKey ${KEY}`);
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(req.headers.get("accept")).toBe("application/json");
    expect(req.body).not.toContain("\n");
    const body = JSON.parse(req.body);
    expect(Object.keys(body)).toEqual(["query", "variables"]);
    expect(body.variables).toEqual(wholeAccount("2026-11-01", "2026-11-07"));
  });

  it("waits at least Retry-After (seconds or HTTP date) before retrying a 429", async () => {
    const later = new Date(Date.now() + 3000).toUTCString();
    const { seen, fetchImpl } = scripted(
      service(true, (_r, n) =>
        n === 1
          ? json({}, 429, { "retry-after": "2" })
          : n === 2
            ? json({}, 429, { "retry-after": later })
            : undefined,
      ),
    );
    const { c, sleeps } = client(fetchImpl);
    await expect(c.introspect(KEY)).resolves.toMatchObject({ filtersSelectable: true });
    expect(seen).toHaveLength(3);
    expect(sleeps[0]).toBe(2000);
    expect(sleeps[1]).toBeGreaterThan(1000);
  });

  it("reports rate_limited with retryAfterMs when attempts run out", async () => {
    const { fetchImpl } = scripted(() =>
      json({ errors: [{ message: "slow" }] }, 429, { "retry-after": "7" }),
    );
    const err = await client(fetchImpl)
      .c.introspect(KEY)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "rate_limited", retryAfterMs: 7000, status: 429 });
  });

  it("caches introspection per endpoint until the TTL, and `fresh` bypasses it", async () => {
    let t = 0;
    const { seen, fetchImpl } = scripted(service());
    const { c } = client(fetchImpl, { now: () => t, introspectionTtlMs: 1000 });
    const count = () => seen.filter((s) => s.body.includes("__schema")).length;
    await Promise.all([c.insights(KEY, week), c.insights(KEY, week)]);
    expect(count()).toBe(1);
    t = 999;
    await c.insights(KEY, week);
    expect(count()).toBe(1);
    t = 1000;
    await c.insights(KEY, week);
    expect(count()).toBe(2);
    await c.verifyKey(KEY);
    expect(count()).toBe(3);
  });

  it("queries without filters when introspection is refused with a GraphQL error", async () => {
    const { seen, fetchImpl } = scripted(
      service(true, (r) =>
        r.body.includes("__schema") ? json({ errors: [{ message: "introspection disabled" }] }) : undefined,
      ),
    );
    const result = await client(fetchImpl).c.insights(KEY, week);
    expect(JSON.parse(seen.at(-1)!.body).query).not.toContain("filters {");
    expect(result.filters).toBeUndefined();
  });

  it("maps a hanging server to unavailable after the timeout", async () => {
    const hang: typeof fetch = (_i, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const { c, sleeps } = client(hang, {
      timeoutMs: 30,
      retry: { attempts: 2, baseMs: 1, maxMs: 1, maxTotalMs: 5000 },
    });
    const started = Date.now();
    await expect(c.introspect(KEY)).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/timed out/),
    });
    expect(sleeps).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("maps a network failure to unavailable and retries it", async () => {
    const { seen, fetchImpl } = scripted(() => {
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      });
    });
    const err = await client(fetchImpl)
      .c.introspect(KEY)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "unavailable", message: expect.stringContaining("ECONNREFUSED") });
    expect(seen).toHaveLength(3);
  });

  it("sanitizes GraphQL error messages that echo the key", async () => {
    const { fetchImpl } = scripted(() =>
      json({ errors: [{ message: `key ${KEY} has no access\nto this` }, { nope: 1 }] }),
    );
    const err = (await client(fetchImpl)
      .c.introspect(KEY)
      .catch((e: unknown) => e)) as AnalyticsError;
    expect(err.code).toBe("graphql");
    expect(err.graphqlMessages).toEqual(["key [redacted] has no access to this"]);
    expect(err.message).not.toContain(KEY);
    expect(JSON.stringify(err.details)).not.toContain(KEY);
  });

  it.each([
    [
      "not JSON at all",
      () => new Response("<html>oops</html>", { status: 200, headers: { "content-type": "text/html" } }),
    ],
    [
      "broken JSON",
      () => new Response('{"data": {', { status: 200, headers: { "content-type": "application/json" } }),
    ],
    ["errors not a list of messages", () => json({ errors: [{ code: 1 }] })],
  ])("maps %s to bad_response without retrying", async (_name, reply) => {
    const { seen, fetchImpl } = scripted(reply);
    await expect(client(fetchImpl).c.introspect(KEY)).rejects.toMatchObject({ code: "bad_response" });
    expect(seen).toHaveLength(1);
  });

  it("refuses keys that cannot be a header value without sending anything", async () => {
    const { seen, fetchImpl } = scripted(service());
    const { c } = client(fetchImpl);
    for (const bad of ["", "   ", "two words", "line\nbreak", "ключ"]) {
      await expect(c.introspect(bad)).rejects.toMatchObject({ code: "bad_request" });
      await expect(c.insights(bad, week)).rejects.toMatchObject({ code: "bad_request" });
      const err = (await c.verifyKey(bad).catch((e: unknown) => e)) as AnalyticsError;
      expect(err.code).toBe("bad_request");
      if (bad.trim()) expect(err.message).not.toContain(bad);
    }
    expect(seen).toHaveLength(0);
  });

  it("discovers the endpoint once from config.js, and tries again after a failed discovery", async () => {
    let configStatus = 503;
    const { seen, fetchImpl } = scripted(
      service(true, (r) =>
        r.url.endsWith("/config.js")
          ? new Response('window.__CONFIG__ = {"graphqlUrl":"https://api.example.com/graphql"}', {
              status: configStatus,
            })
          : undefined,
      ),
    );
    const { c } = client(fetchImpl, {
      graphqlUrl: undefined,
      appUrl: "https://app.example.com/",
      retry: { attempts: 1 },
    });
    await expect(c.endpoint()).rejects.toMatchObject({ code: "unavailable", status: 503 });
    configStatus = 200;
    await expect(c.endpoint()).resolves.toBe(URL_);
    await c.insights(KEY, week);
    expect(seen.filter((s) => s.url.endsWith("/config.js"))).toHaveLength(2);
    expect(seen.at(-1)!.url).toBe(URL_);
  });

  it("needs an http(s) endpoint or app URL", () => {
    expect(() => createAnalyticsClient({})).toThrowError(AnalyticsError);
    expect(() => createAnalyticsClient({ graphqlUrl: "not a url" })).toThrowError(/graphqlUrl/);
    expect(() => createAnalyticsClient({ appUrl: "file:///etc/passwd" })).toThrowError(/appUrl/);
  });

  it("keeps a good cached introspection when verifying a wrong key fails", async () => {
    const { seen, fetchImpl } = scripted(
      service(true, (r) =>
        r.headers.get("authorization") === "ApiKey wrong" ? json({ errors: [] }, 401) : undefined,
      ),
    );
    const { c } = client(fetchImpl);
    await c.introspect(KEY);
    await expect(c.verifyKey("wrong")).rejects.toMatchObject({ code: "unauthorized" });
    await c.insights(KEY, week);
    expect(seen.filter((s) => s.body.includes("__schema"))).toHaveLength(2);
  });
});
