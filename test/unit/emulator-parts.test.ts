import { describe, expect, it } from "vitest";
import { parseAuthorization } from "../../sandbox/analytics/auth.ts";
import { createFaultPlan } from "../../sandbox/analytics/faults.ts";
import { rotateRootFields } from "../../sandbox/analytics/introspection.ts";

describe("parseAuthorization", () => {
  it("takes the key after `ApiKey ` and nothing else", () => {
    expect(parseAuthorization("ApiKey abc-123")).toEqual({ ok: true, apiKey: "abc-123" });
    for (const bad of [
      undefined,
      "",
      "ApiKey",
      "ApiKey ",
      "ApiKey  abc",
      "Bearer abc",
      "apikey abc",
      "ApiKey a b",
      "ApiKeyabc",
    ]) {
      const outcome = parseAuthorization(bad);
      expect(outcome.ok, String(bad)).toBe(false);
      if (!outcome.ok) expect(outcome.message).not.toContain("abc");
    }
  });
});

describe("rotateRootFields", () => {
  const names = () => ["a", "b", "c", "d"].map((name) => ({ name }));

  it("rotates queryType.fields, the Query entry of types and __type(Query), differently per shift", () => {
    const result = {
      data: {
        __schema: {
          queryType: { fields: names() },
          types: [
            { name: "Query", fields: names() },
            { name: "X", fields: names() },
          ],
        },
        q: { name: "Query", fields: names() },
      },
    };
    expect(rotateRootFields(result, 1)).toBe(true);
    const order = (list: { name: string }[]) => list.map((f) => f.name).join("");
    expect(order(result.data.__schema.queryType.fields)).toBe("bcda");
    expect(order(result.data.__schema.types[0]!.fields)).toBe("bcda");
    expect(order(result.data.__schema.types[1]!.fields)).toBe("abcd");
    expect(order(result.data.q.fields)).toBe("bcda");
    const again = { data: { __schema: { queryType: { fields: names() } } } };
    rotateRootFields(again, 2);
    expect(order(again.data.__schema.queryType.fields)).toBe("cdab");
  });

  it("leaves other results alone", () => {
    const result = { data: { insights: { dailyMetric: [] } } };
    expect(rotateRootFields(result, 1)).toBe(false);
    expect(rotateRootFields({ errors: [] }, 1)).toBe(false);
  });
});

describe("createFaultPlan", () => {
  it("serves injected faults FIFO with their counts, latency as a delay", () => {
    const plan = createFaultPlan(() => 0.99);
    plan.inject({ kind: "status", status: 502 }, 2);
    plan.inject({ kind: "latency", ms: 40 });
    plan.inject({ kind: "hang" }, 0);
    expect(plan.next()).toEqual({ delayMs: 0, fault: { kind: "status", status: 502 } });
    expect(plan.next()).toEqual({ delayMs: 0, fault: { kind: "status", status: 502 } });
    expect(plan.next()).toEqual({ delayMs: 40 });
    expect(plan.next()).toEqual({ delayMs: 0 });
  });

  it("draws background faults from the rates", () => {
    const rolls = [0.05, 0.25, 0.45, 0.9];
    const plan = createFaultPlan(() => rolls.shift() ?? 0.9);
    plan.setRates({ hang: 0.1, error5xx: 0.2, rateLimit: 0.2, latencyMs: 5 });
    expect(plan.next()).toEqual({ delayMs: 5, fault: { kind: "hang" } });
    expect(plan.next()).toEqual({ delayMs: 5, fault: { kind: "status", status: 503 } });
    expect(plan.next()).toEqual({ delayMs: 5, fault: { kind: "rate_limit", retryAfterSeconds: 1 } });
    expect(plan.next()).toEqual({ delayMs: 5 });
    plan.clear();
    expect(plan.next()).toEqual({ delayMs: 0 });
  });
});
