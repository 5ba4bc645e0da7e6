import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../src/jobs/failures.ts";
import { SlackCallError } from "../../src/jobs/slack-api.ts";
import { describeReason } from "../../src/subscriptions/reasons.ts";

const inBody = (error: string) =>
  new SlackCallError("slack_error", "chat.postMessage", error, { status: 200 });

describe("Slack error mapping of a delivery", () => {
  const restricted = [
    "restricted_action",
    "restricted_action_read_only_channel",
    "restricted_action_thread_only_channel",
    "access_denied",
    "enterprise_is_restricted",
  ];

  it.each(restricted)("%s is permanent: pause and tell the owner, never retried", (error) => {
    expect(classifyFailure(inBody(error))).toEqual({ kind: "permanent", reason: error });
  });

  it.each(restricted)("%s has its own words for the owner's DM, not the generic fallback", (error) => {
    const text = describeReason(error);
    expect(text.what).not.toContain(error);
    expect(text.fix).toMatch(/resume/);
  });

  it("rate_limited in a 200 body is a rate limit (wait, no attempt used), like a 429", () => {
    expect(classifyFailure(inBody("rate_limited"))).toEqual({
      kind: "rate_limited",
      reason: "ratelimited",
      retryAfterMs: 1_000,
    });
    const http429 = new SlackCallError("slack_http", "chat.postMessage", "ratelimited", {
      status: 429,
      retryAfterMs: 4_000,
    });
    expect(classifyFailure(http429)).toEqual({
      kind: "rate_limited",
      reason: "ratelimited",
      retryAfterMs: 4_000,
    });
  });
});
