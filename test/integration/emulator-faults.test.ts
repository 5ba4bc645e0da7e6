import { afterEach, describe, expect, it } from "vitest";
import {
  DEMO_API_KEY,
  SEED_INSIGHTS_QUERY,
  SEED_INTROSPECTION_QUERY,
  seedPost,
  startEmulator,
} from "../../sandbox/analytics/index.ts";
import { useEmulator } from "./use-emulator.ts";

const emu = useEmulator({ today: () => "2026-11-20" });
afterEach(() => emu.clearFaults());

const ask = (signal?: AbortSignal, apiKey = DEMO_API_KEY) =>
  seedPost(emu.graphqlUrl, { query: SEED_INTROSPECTION_QUERY }, { apiKey }, signal);

describe("injected faults", () => {
  it("latency delays a normal answer", async () => {
    emu.inject({ kind: "latency", ms: 250 });
    const started = performance.now();
    const reply = await ask();
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).data.__schema.mutationType).toBeNull();
  });

  it("status answers 5xx (and 4xx) with a JSON errors body, or a given body", async () => {
    for (const status of [500, 502, 503, 400, 403]) {
      emu.inject({ kind: "status", status });
      const reply = await ask();
      expect(reply.status).toBe(status);
      expect(JSON.parse(reply.text).errors[0].message).toContain(String(status));
    }
    emu.inject({ kind: "status", status: 502, body: "<html>Bad Gateway</html>" });
    const html = await ask();
    expect([html.status, html.text]).toEqual([502, "<html>Bad Gateway</html>"]);
    expect(String(html.headers["content-type"])).toMatch(/text\/plain/);
  });

  it("rate_limit answers 429 with Retry-After", async () => {
    emu.inject({ kind: "rate_limit", retryAfterSeconds: 7 });
    const reply = await ask();
    expect(reply.status).toBe(429);
    expect(reply.headers["retry-after"]).toBe("7");
    expect(JSON.parse(reply.text).errors[0].extensions.code).toBe("RATE_LIMITED");
  });

  it("hang never answers; the client's timeout fires and the next request is served", async () => {
    emu.inject({ kind: "hang" });
    const started = performance.now();
    await expect(ask(AbortSignal.timeout(300))).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    expect((await ask()).status).toBe(200);
  });

  it("malformed answers 200 with a body that is not JSON", async () => {
    emu.inject({ kind: "malformed" });
    const reply = await ask();
    expect(reply.status).toBe(200);
    expect(() => JSON.parse(reply.text)).toThrow();
    emu.inject({ kind: "malformed", body: "<!doctype html><p>login</p>" });
    expect((await ask()).text).toBe("<!doctype html><p>login</p>");
  });

  it("reply answers 200 with exactly the given JSON", async () => {
    const body = { data: { insights: { dailyMetric: "nope" } }, extra: [1, 2] };
    emu.inject({ kind: "reply", body });
    const reply = await seedPost(
      emu.graphqlUrl,
      { query: SEED_INSIGHTS_QUERY, variables: {} },
      { apiKey: DEMO_API_KEY },
    );
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual(body);
  });

  it("serves injected faults first in, first out, `times` each, counted as requests", async () => {
    const before = emu.requestCount();
    emu.inject({ kind: "status", status: 503 }, 2);
    emu.inject({ kind: "rate_limit", retryAfterSeconds: 1 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask()).status);
    expect(statuses).toEqual([503, 503, 429, 200]);
    expect(emu.requestCount()).toBe(before + 4);
  });

  it("applies faults before authentication (like a gateway in front of the service)", async () => {
    emu.inject({ kind: "status", status: 503 });
    const reply = await seedPost(
      emu.graphqlUrl,
      { query: SEED_INTROSPECTION_QUERY },
      { authorization: null },
    );
    expect(reply.status).toBe(503);
    expect(
      (await seedPost(emu.graphqlUrl, { query: SEED_INTROSPECTION_QUERY }, { authorization: null })).status,
    ).toBe(401);
  });

  it("clearFaults drops queued faults", async () => {
    emu.inject({ kind: "status", status: 500 }, 5);
    emu.clearFaults();
    expect((await ask()).status).toBe(200);
  });
});

describe("fault rates", () => {
  it("error5xx, rateLimit and hang at rate 1 hit every request", async () => {
    emu.setRates({ error5xx: 1 });
    expect([(await ask()).status, (await ask()).status]).toEqual([503, 503]);
    emu.setRates({ rateLimit: 1 });
    const limited = await ask();
    expect([limited.status, limited.headers["retry-after"]]).toEqual([429, "1"]);
    emu.setRates({ hang: 1 });
    await expect(ask(AbortSignal.timeout(150))).rejects.toThrow();
  });

  it("mixes faults and answers at a middle rate, and latencyMs delays every request", async () => {
    emu.setRates({ error5xx: 0.5 });
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++) statuses.add((await ask()).status);
    expect(statuses).toEqual(new Set([200, 503]));
    emu.setRates({ latencyMs: 120 });
    const started = performance.now();
    expect((await ask()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });
});

describe("close", () => {
  it("ends hanging requests and resolves promptly", async () => {
    const other = await startEmulator();
    other.inject({ kind: "hang" }, 3);
    const pending = [1, 2, 3].map(() =>
      seedPost(other.graphqlUrl, { query: SEED_INTROSPECTION_QUERY }, { apiKey: DEMO_API_KEY }).then(
        () => "answered",
        () => "ended",
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(other.requestCount()).toBe(3);
    const started = performance.now();
    await other.close();
    expect(await Promise.all(pending)).toEqual(["ended", "ended", "ended"]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
