import { describe, expect, it } from "vitest";
import { loadConfig, parseRedisUrl } from "../../src/config.ts";
import { parseSlotSchedulerId, slotFor, slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";

describe("REDIS_URL", () => {
  it("reads one server and the cluster form", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6379")).toEqual({
      kind: "single",
      url: "redis://127.0.0.1:6379",
    });
    expect(parseRedisUrl("redis-cluster://10.0.0.1:7000,10.0.0.2:7001")).toEqual({
      kind: "cluster",
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7001 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(parseRedisUrl("rediss-cluster://app:p%40ss@redis.internal:6380/")).toMatchObject({
      kind: "cluster",
      nodes: [{ host: "redis.internal", port: 6380 }],
      username: "app",
      password: "p@ss",
      tls: true,
    });
  });

  it("reads the Sentinel form: sentinels, the primary's name, Redis and Sentinel credentials, TLS", () => {
    expect(parseRedisUrl("redis-sentinel://10.0.0.1:26379,10.0.0.2:26380/mymaster")).toEqual({
      kind: "sentinel",
      sentinels: [
        { host: "10.0.0.1", port: 26379 },
        { host: "10.0.0.2", port: 26380 },
      ],
      name: "mymaster",
      username: undefined,
      password: undefined,
      sentinelUsername: undefined,
      sentinelPassword: undefined,
      tls: false,
    });
    expect(
      parseRedisUrl(
        "rediss-sentinel://app:p%40ss@[::1]:26379/insights-primary?sentinelUsername=watch&sentinelPassword=s%26cret",
      ),
    ).toEqual({
      kind: "sentinel",
      sentinels: [{ host: "::1", port: 26379 }],
      name: "insights-primary",
      username: "app",
      password: "p@ss",
      sentinelUsername: "watch",
      sentinelPassword: "s&cret",
      tls: true,
    });
    // The password alone (Redis before ACLs): no user name.
    expect(parseRedisUrl("redis-sentinel://:pw@s1:26379/m/")).toMatchObject({ password: "pw", name: "m" });
  });

  it("refuses anything else, naming the variable and never echoing the value", () => {
    for (const bad of [
      "http://x",
      "redis-cluster://",
      "redis-cluster://host",
      "redis-cluster://h:0",
      "redis-cluster://:pw@h:99999",
      "redis-sentinel://:pw@s1:26379",
      "redis-sentinel://:pw@s1/mymaster",
      "redis-sentinel://:pw@s1:26379/mymaster?password=pw@",
      "redis-sentinel://:pw@s1:26379/m%ZZ",
    ]) {
      let message = "";
      try {
        loadConfig("worker", {
          REDIS_URL: bad,
          ENCRYPTION_KEYS: `k1:${Buffer.alloc(32).toString("base64")}`,
          ANALYTICS_GRAPHQL_URL: "http://127.0.0.1:9/graphql",
        });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain("REDIS_URL");
      expect(message).not.toContain("pw@");
    }
  });
});

describe("time slots", () => {
  it("one slot per (pattern, zone), paused subscriptions in none, ids fit keys and scheduler ids", () => {
    const berlin = slotFor("0 9 * * 1", "Europe/Berlin");
    expect(slotFor("0 9 * * 1", "Europe/Berlin")).toEqual(berlin);
    expect(slotFor("0 9 * * 1", "Europe/Paris").id).not.toBe(berlin.id);
    expect(berlin.id).toMatch(/^[A-Za-z0-9]{16}$/);
    const sub = {
      schedule: { kind: "weekly" as const, days: ["mon" as const] },
      time: "09:00",
      tz: "Europe/Berlin",
    };
    expect(slotOf({ ...sub, status: "active" })).toEqual(berlin);
    expect(slotOf({ ...sub, status: "paused" })).toBeNull();
    expect(parseSlotSchedulerId(slotSchedulerId(berlin.id))).toBe(berlin.id);
    expect(parseSlotSchedulerId("-.T0DEMO001.abcd1234")).toBeNull();
  });
});
