import { describe, expect, it } from "vitest";
import { DEMO } from "../../sandbox/stack.ts";
import { fuzzTexts } from "../bench/hostile.ts";
import { useFileStack } from "./helpers.ts";

const stack = useFileStack(`e2e-fuzz-${process.pid}`, { connect: true });

describe("2,000 random slash texts", () => {
  it("every one gets a helpful reply and the app stays up", async () => {
    // The same seeded hostile texts the bench sends, so both exercise one definition of "hostile".
    const texts = fuzzTexts(2000, 4242);
    const problems: string[] = [];
    const queue = [...texts];
    const worker = async () => {
      for (let text = queue.shift(); text !== undefined; text = queue.shift()) {
        const sent = await stack.slack.sendCommand({
          teamId: DEMO.teamId,
          userId: DEMO.member,
          channelId: DEMO.general,
          text,
        });
        if (sent.status !== 200) {
          problems.push(
            `${JSON.stringify(text)} → HTTP ${sent.status}${sent.error ? ` (${sent.error})` : ""}`,
          );
          continue;
        }
        const reply = await stack.slack
          .waitFor(() => stack.slack.responses(sent.responseUrl)[0], { timeoutMs: 10_000 })
          .catch(() => undefined);
        const body = reply?.body as { text?: string; blocks?: unknown[] } | undefined;
        const all = `${body?.text ?? ""} ${JSON.stringify(body?.blocks ?? [])}`;
        // Helpful = a digest, a usage/status answer, or a warning that says what to do next.
        const helpful = /findings|\/insights|Analytics endpoint|Usage|last7d/.test(all);
        if (!helpful || /Something went wrong on our side/.test(all))
          problems.push(`${JSON.stringify(text)} → ${all.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(problems).toEqual([]);
    const health = await fetch(`${stack.web.url}/healthz`);
    expect(health.status).toBe(200);
  }, 120_000);
});
