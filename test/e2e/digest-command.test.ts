import { describe, expect, it } from "vitest";
import { accountFor, dailyCounts } from "../../sandbox/analytics/index.ts";
import { chooseOption } from "../../sandbox/slack/index.ts";
import { DEMO, DEMO_API_KEY } from "../../sandbox/stack.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { ACTION } from "../../src/ids.ts";
import { enumerateDays } from "../../src/insights/days.ts";
import { formatCount } from "../../src/insights/format.ts";
import { command, connect, rangeResolvedSince, useFileStack } from "./helpers.ts";

const stack = useFileStack(`e2e-digest-${process.pid}`);

describe("/insights on demand", () => {
  it("connects the key through the modal and answers a digest", async () => {
    const { submitted } = await connect(stack);
    expect(submitted.status).toBe(200);
    const { sent, body } = await command(stack, "last7d");
    expect(sent.status).toBe(200);
    expect(sent.ackMs).toBeLessThan(3000);
    expect(body.response_type).toBe("ephemeral");
    expect(body.text).toMatch(/findings/);
    expect(checkMessage(body as never)).toEqual([]);
  });

  it("narrows to the asset picked in the dropdown, in place, with the emulator's numbers", async () => {
    const since = stack.clock();
    const { body, sent } = await command(stack, "last7d");
    const account = accountFor(DEMO_API_KEY);
    const asset = account?.assets[3];
    expect(asset).toBeDefined();
    const action = chooseOption(body.blocks, ACTION.assetSelect, asset?.value as string);
    const before = stack.slack.responses(sent.responseUrl).length;
    await stack.slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      responseUrl: sent.responseUrl,
      container: { is_ephemeral: true },
      actions: [action],
    });
    const replaced = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[before]);
    expect(replaced.outcome).toBe("replaced");
    const text = String((replaced.body as { text?: string }).text);
    // The member is in America/Los_Angeles: the same range the app resolved for them.
    const range = rangeResolvedSince("last7d", "America/Los_Angeles", since, replaced.body, stack.clock);
    let findings = 0;
    let violations = 0;
    for (const day of enumerateDays(range.from, range.to)) {
      const c = dailyCounts(account as NonNullable<typeof account>, day, [asset?.value as string]);
      findings += c.findings;
      violations += c.violations;
    }
    expect(text).toContain(`${formatCount(findings)} findings`);
    expect(text).toContain(`${formatCount(violations)} violations`);
    expect(JSON.stringify(replaced.body)).toContain(asset?.displayValue.split(" / ")[1]);
  });
});
