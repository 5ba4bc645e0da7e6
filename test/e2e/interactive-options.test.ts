import { describe, expect, it } from "vitest";
import { accountFor } from "../../sandbox/analytics/index.ts";
import { findElement } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { command, useFileStack } from "./helpers.ts";

/** Type-ahead answers from the lists a digest left behind: no query and no digest while Slack waits. */
const BIG_KEY = "big-options-key";

const stack = useFileStack(`e2e-iopt-${process.pid}`, {
  emulator: { accounts: [{ apiKey: BIG_KEY, assetCount: 400 }] },
  connect: BIG_KEY,
});

/** Drops the cached insights replies; with `lists`, the kept filter lists too. */
async function forget(lists: boolean) {
  for await (const batch of scanKeys(stack.redis, `e2e-iopt-${process.pid}:*:insights*`))
    for (const key of batch) if (lists || !key.endsWith(":filter-lists")) await stack.redis.del(key);
}

async function typeAhead(blockId: string | undefined, value: string) {
  const res = await stack.slack.sendOptions({
    teamId: DEMO.teamId,
    userId: DEMO.member,
    actionId: ACTION.assetSelect,
    blockId,
    value,
    channelId: DEMO.general,
  });
  expect(res.status).toBe(200);
  return (res.body as { options: { value: string }[] }).options.map((o) => o.value);
}

describe("type-ahead", () => {
  it("answers from the kept lists while the analytics service hangs, and fetches them when none are kept", async () => {
    const { body } = await command(stack, "last30d");
    const menu = findElement(body.blocks, ACTION.assetSelect);
    expect(menu?.element.type).toBe("external_select");
    const target = accountFor(BIG_KEY)?.assets[200];
    const query = target?.displayValue ?? "";

    await forget(false);
    stack.emulator.inject({ kind: "hang" }, 5);
    const before = stack.emulator.requestCount();
    expect(await typeAhead(menu?.blockId, query)).toContain(target?.value);
    expect(stack.emulator.requestCount()).toBe(before);
    stack.emulator.clearFaults();

    await forget(true);
    expect(await typeAhead(menu?.blockId, query)).toContain(target?.value);
    expect(stack.emulator.requestCount()).toBeGreaterThan(before);
  });
});
