import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactText, withLogContext } from "../../src/log.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _e, cb) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, logger: createLogger({ level: "debug", destination }) };
}

describe("logger", () => {
  it("adds the context's ids to every line inside it, also across awaits", async () => {
    const { lines, logger } = capture();
    await withLogContext({ jobId: "42", sub: "-.T1.abc" }, async () => {
      logger.info("start");
      await new Promise((r) => setTimeout(r, 5));
      logger.child({ component: "cache" }).warn("inner");
    });
    logger.info("outside");
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.msg, l.jobId])).toEqual([
      ["start", "42"],
      ["inner", "42"],
      ["outside", undefined],
    ]);
  });

  it("redacts secrets by field name and by token shape", async () => {
    const { lines, logger } = capture();
    logger.info({ apiKey: "pk-live-123", headers: { authorization: "ApiKey pk-live-123" } }, "saved");
    logger.error({ err: new Error("call failed with xoxb-1234-5678-abcdef") }, "Bearer xoxp-9-9-9 rejected");
    await new Promise((r) => setImmediate(r));
    const text = JSON.stringify(lines);
    expect(text).not.toContain("pk-live-123");
    expect(text).not.toContain("xoxb-1234-5678-abcdef");
    expect(text).not.toContain("xoxp-9-9-9");
    expect(redactText("Authorization: ApiKey abc.def")).toBe("Authorization: ApiKey[redacted]");
  });
});
