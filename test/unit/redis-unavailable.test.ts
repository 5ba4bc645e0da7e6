import { describe, expect, it } from "vitest";
import { isRedisUnavailable } from "../../src/store/redis-client.ts";

/** Which errors say Redis was away (the work is run again once it is back) and which say something else. */
describe("isRedisUnavailable", () => {
  it("knows ioredis's and the server's words for being away", () => {
    const away = [
      new Error("Command timed out"),
      new Error("Connection is closed."),
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      Object.assign(new Error("Reached the max retries per request limit (which is 2)."), {
        name: "MaxRetriesPerRequestError",
      }),
      new Error("READONLY You can't write against a read only replica."),
      new Error("NOREPLICAS Not enough good replicas to write."),
      new Error("LOADING Redis is loading the dataset in memory"),
      new Error("connect ECONNREFUSED 10.117.1.2:6379"),
      new Error("Socket timeout. Expecting data, but didn't receive any in 5000ms."),
    ];
    for (const err of away) expect(isRedisUnavailable(err), err.message).toBe(true);
  });

  it("does not take a command's own failure, or anything else, for Redis being away", () => {
    const other = [
      new Error("WRONGTYPE Operation against a key holding the wrong kind of value"),
      new Error("ERR unknown command 'FOO'"),
      Object.assign(new Error("The analytics service did not answer."), { code: "analytics_unavailable" }),
      new Error("a READONLY word later in the message"),
      undefined,
      null,
      "Command timed out",
    ];
    for (const err of other) expect(isRedisUnavailable(err), String(err)).toBe(false);
  });
});
