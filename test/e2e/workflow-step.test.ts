import { describe, expect, it } from "vitest";
import { accountFor, dailyCounts } from "../../sandbox/analytics/index.ts";
import { type FunctionExecution, loadManifest } from "../../sandbox/slack/index.ts";
import { DEMO, DEMO_API_KEY } from "../../sandbox/stack.ts";
import { STEP } from "../../src/ids.ts";
import { enumerateDays } from "../../src/insights/days.ts";
import { connect, rangeResolvedSince, useFileStack } from "./helpers.ts";

/**
 * The "Send insights digest" custom step, run the way Workflow Builder runs it: the stand-in sends
 * function_executed with a fresh workflow token and checks the completion against the outputs
 * manifest.yaml declares (its own parse). `retired_step` is a step an older manifest declared.
 */
const RETIRED = "retired_step";

const manifest = loadManifest();
manifest.functions.set(RETIRED, { callbackId: RETIRED, title: "Old step", inputs: [], outputs: [] });
const stack = useFileStack(`e2e-step-${process.pid}`, { slack: { manifest }, unlimited: true });

/** Runs the step and waits until Slack (the stand-in) records its end. */
async function run(inputs: Record<string, unknown>, o: { unchecked?: boolean; callbackId?: string } = {}) {
  const sent = await stack.slack.executeStep({
    teamId: DEMO.teamId,
    callbackId: o.callbackId ?? STEP.sendDigest,
    inputs,
    unchecked: o.unchecked,
  });
  expect(sent.status).toBe(200);
  expect(sent.ackMs).toBeLessThan(3000);
  return stack.slack.waitFor(
    () => {
      const e = stack.slack.stepExecution(sent.executionId);
      return e && e.status !== "running" ? e : undefined;
    },
    { timeoutMs: 15_000, what: "the step to complete or fail" },
  ) as Promise<FunctionExecution>;
}

describe("custom step: Send insights digest", () => {
  it("fails with a clear error in a workspace with no platform API key, and posts nothing", async () => {
    const posted = stack.slack.messages(DEMO.security).length;
    const done = await run({ channel_id: DEMO.security });
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/no platform API key yet.*\/insights connect/);
    expect(stack.slack.messages(DEMO.security)).toHaveLength(posted);
  });

  it("posts the digest and completes with the message link, ts and headline numbers (checked against the manifest)", async () => {
    const since = stack.clock();
    await connect(stack);
    const account = accountFor(DEMO_API_KEY);
    const asset = account?.assets.find((a) => a.displayValue.includes(" / "));
    if (!account || !asset) throw new Error("the demo account has no nested asset");
    const done = await run({ channel_id: DEMO.security, range: "last30d", assets: asset.displayValue });
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(done.refusals).toEqual([]);
    const outputs = done.outputs as Record<string, unknown>;
    const message = stack.slack.messages(DEMO.security).find((m) => m.ts === outputs.message_ts);
    expect(message?.user).toBe(DEMO.botUserId);
    expect(JSON.stringify(message?.blocks)).toContain("Posted by a workflow");
    expect(outputs.message_link).toBe(
      `https://demo-co.slack.com/archives/${DEMO.security}/p${String(outputs.message_ts).replace(".", "")}`,
    );
    // The numbers a later step gets are the emulator's, for the asset, over 30 UTC days.
    const range = rangeResolvedSince("last30d", "UTC", since, outputs, stack.clock);
    const sum = { findings: 0, violations: 0, fixes: 0, merged: 0 };
    for (const day of enumerateDays(range.from, range.to)) {
      const c = dailyCounts(account, day, [asset.value]);
      sum.findings += c.findings;
      sum.violations += c.violations;
      sum.fixes += c.fixedViolations;
      sum.merged += c.mergedViolations;
    }
    expect(outputs).toMatchObject({
      range_label: range.label,
      findings: sum.findings,
      violations: sum.violations,
      fixes: sum.fixes,
      merged_violations: sum.merged,
    });
  });

  it("the run's workflow token stops working once the step has completed", async () => {
    const done = await run({ channel_id: DEMO.general });
    expect(done.status).toBe("completed");
    const res = await fetch(`${stack.slack.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: { Authorization: `Bearer ${done.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ channel: DEMO.general, text: "late" }),
    });
    expect(await res.json()).toMatchObject({ ok: false, error: "token_expired" });
  });

  it("bad input fails the step with what to fix, and posts nothing", async () => {
    const posted = stack.slack.messages(DEMO.general).length;
    const badRange = await run({ channel_id: DEMO.general, range: "fortnight" });
    expect(badRange).toMatchObject({ status: "failed" });
    expect(badRange.error).toMatch(/fortnight/);
    const badAsset = await run({ channel_id: DEMO.general, assets: "no-such-asset-anywhere" });
    expect(badAsset.error).toMatch(/No asset is called "no-such-asset-anywhere"/);
    const noChannel = await run({ range: "last7d" }, { unchecked: true });
    expect(noChannel.error).toMatch(/needs a channel/);
    const dm = await run({ channel_id: `D${DEMO.member.slice(1)}` });
    expect(dm.error).toMatch(/must be a public or private channel/);
    expect(stack.slack.messages(DEMO.general)).toHaveLength(posted);
  });

  it("a channel without the app fails with how to invite it", async () => {
    const done = await run({ channel_id: DEMO.noBot });
    expect(done.status).toBe("failed");
    expect(done.error).toContain(`Insights is not in <#${DEMO.noBot}>: invite @Insights there`);
  });

  it("a step this version no longer offers is acked and failed, not left to time out", async () => {
    const done = await run({}, { callbackId: RETIRED });
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/no longer offers the step "retired_step"/);
  });
});
