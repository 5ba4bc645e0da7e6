import { describe, expect, it } from "vitest";
import { discoverEndpoint } from "../../src/analytics/discovery.ts";

/** A config.js served as an app would serve it, naming `graphql` as its API. */
const serving =
  (graphql: string): typeof fetch =>
  async () =>
    new Response(`window.__CONFIG__ = { api: "${graphql}" };`, { status: 200 });

describe("endpoint discovery never downgrades an https:// app to plain http", () => {
  it.each([
    [
      "https://app.example.com",
      "https://api.example.com/graphql",
      "https://api.example.com/analytics/graphql",
    ],
    ["http://app.example.com", "http://api.example.com/graphql", "http://api.example.com/analytics/graphql"],
    // Loopback never leaves the machine (a sidecar, the emulator).
    ["https://app.example.com", "http://127.0.0.1:4000/graphql", "http://127.0.0.1:4000/analytics/graphql"],
    ["https://app.example.com", "http://localhost:4000/graphql", "http://localhost:4000/analytics/graphql"],
    ["https://app.example.com", "http://[::1]:4000/graphql", "http://[::1]:4000/analytics/graphql"],
  ])("%s with %s → %s", async (app, api, endpoint) => {
    await expect(discoverEndpoint(app, "analytics", serving(api))).resolves.toBe(endpoint);
  });

  it.each([
    "http://api.example.com/graphql",
    "http://api.example.com/analytics/graphql",
    "http://10.0.0.8:8080/graphql",
  ])("refuses %s for an https:// app, with a clear error and no retry", async (api) => {
    const err = await discoverEndpoint("https://app.example.com", "analytics", serving(api)).catch((e) => e);
    expect(err).toMatchObject({ code: "bad_response" });
    expect(err.message).toContain("names an http:// GraphQL endpoint");
    expect(err.message).toContain("the API key would travel in clear text");
    expect(err.message).toContain("ANALYTICS_GRAPHQL_URL");
  });
});
