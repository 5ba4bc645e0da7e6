import { describe, expect, it } from "vitest";
import { DEMO, DEMO_API_KEY } from "../../sandbox/stack.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { command, connect, useFileStack, who } from "./helpers.ts";

const prefix = `e2e-sec-${process.pid}`;

/** Every key and every value under the test's prefix, as text. */
async function dumpRedis(): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of scanKeys(stack.redis, `${prefix}:*`)) {
    for (const key of batch) {
      out.push(key);
      const type = await stack.redis.type(key);
      if (type === "string") out.push(String(await stack.redis.get(key)));
      else if (type === "hash") out.push(JSON.stringify(await stack.redis.hgetall(key)));
      else if (type === "set") out.push(JSON.stringify(await stack.redis.smembers(key)));
      else if (type === "list") out.push(JSON.stringify(await stack.redis.lrange(key, 0, -1)));
      else if (type === "zset")
        out.push(JSON.stringify(await stack.redis.zrange(key, 0, "-1", "WITHSCORES")));
    }
  }
  return out;
}

const stack = useFileStack(prefix);

describe("requests Slack did not sign", () => {
  it.each(["none", "bad", "old"] as const)("%s signature: rejected and nothing changes", async (sign) => {
    const before = await dumpRedis();
    const callsBefore = stack.slack.calls().length;
    const sent = await stack.slack.sendCommand({ ...who(DEMO.admin), text: "disconnect", sign });
    expect(sent.status).toBe(401);
    const views = await stack.slack.sendViewSubmission({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      view: { callback_id: "connect_modal" },
      values: { api_key: { api_key: { type: "plain_text_input", value: "attacker-key" } } },
      sign,
    });
    expect(views.status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    expect(stack.slack.responses(sent.responseUrl)).toEqual([]);
    expect(stack.slack.calls().length).toBe(callsBefore);
    expect(await dumpRedis()).toEqual(before);
  });
});

describe("the API key at rest and in logs", () => {
  it("after connecting, no Redis key or value and no log line holds the key", async () => {
    await connect(stack);
    const { body } = await command(stack, "last7d");
    expect(body.text).toMatch(/findings/);
    const dump = await dumpRedis();
    expect(dump.length).toBeGreaterThan(2);
    expect(dump.some((s) => s.includes("apikey"))).toBe(true);
    for (const item of dump) expect(item).not.toContain(DEMO_API_KEY);
    expect(stack.logLines.length).toBeGreaterThan(3);
    for (const line of stack.logLines) {
      expect(line).not.toContain(DEMO_API_KEY);
      expect(line).not.toContain(DEMO.botToken);
    }
    for (const call of stack.slack.calls()) expect(JSON.stringify(call.args)).not.toContain(DEMO_API_KEY);
  });
});

describe("log lines", () => {
  it("every line written while handling a Slack request carries that request's id", async () => {
    const from = stack.logLines.length;
    await command(stack, "last30d");
    // The executor logs "command handled" once its reply is out, which may be after the reply arrives.
    const parsed = () => stack.logLines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
    await stack.slack.waitFor(() => parsed().some((l) => l.msg === "command handled"), {
      what: "the command's handled line",
    });
    const lines = parsed();
    const handled = lines.find((l) => l.msg === "command handled");
    // A request handled where it is acked has a Bolt-side id of 32 hex digits; one handed off to the
    // executor is known by its hand-off job's id (`r` + 32 hex digits) from the ack to the answer.
    expect(handled?.requestId).toMatch(/^r?[0-9a-f]{32}$/);
    expect(lines.filter((l) => l.requestId === handled?.requestId).length).toBeGreaterThanOrEqual(1);
    expect(lines.every((l) => typeof l.requestId === "string")).toBe(true);
  });
});
