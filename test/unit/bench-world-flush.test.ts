import { describe, expect, it } from "vitest";
import { createKeyScheme } from "../../src/store/keys.ts";
import { CACHE_KEY } from "../bench/ack/world.ts";

/**
 * What the ack bench empties between its modes, named by the app's own key scheme: every cache the
 * app fills while it answers (so each mode starts as cold as the first), and nothing a workspace
 * needs to be served (its installation, API key, subscriptions, settings).
 */
describe("the ack bench's flush between modes", () => {
  const keys = createKeyScheme({ prefix: "insights" });
  const ref = { teamId: "TB0000001" };

  it("drops every cache the app fills while it answers, the shared drivers results included", () => {
    const caches = [
      keys.user(ref, "U0000001"),
      keys.channelState(ref, "C0000001"),
      keys.dmChannel(ref, "U0000001"),
      keys.insightsCache(ref, "abc123"),
      keys.insightsCacheIndex(ref),
      keys.unfurl(ref, "abc123"),
      keys.introspection(ref, "abc123"),
      keys.drivers("acct", "abc123").result,
    ];
    expect(caches.filter((k) => !CACHE_KEY.test(k))).toEqual([]);
  });

  it("keeps what a workspace needs to be served", () => {
    const kept = [
      keys.installation(ref),
      keys.apiKey(ref),
      keys.subscription(ref, "s1"),
      keys.subscriptionIndex(ref),
      keys.settings(ref),
    ];
    expect(kept.filter((k) => CACHE_KEY.test(k))).toEqual([]);
  });
});
