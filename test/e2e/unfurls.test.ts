import { beforeAll, describe, expect, it } from "vitest";
import { accountFor, dailyCounts } from "../../sandbox/analytics/index.ts";
import { DEMO, DEMO_API_KEY } from "../../sandbox/stack.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { enumerateDays } from "../../src/insights/days.ts";
import { formatCount } from "../../src/insights/format.ts";
import { connect, rangeResolvedSince, useFileStack } from "./helpers.ts";

/**
 * Link unfurls: a person pastes links in a channel; the stand-in sends link_shared only for the
 * app's unfurl domains (the manifest's, plus the sandbox platform's host), and records chat.unfurl.
 */
let platform: string;

const stack = useFileStack(`e2e-unfurl-${process.pid}`, { unlimited: true });
beforeAll(async () => {
  platform = stack.emulator.appUrl;
});

const post = (text: string) =>
  stack.slack.postLinks({ teamId: DEMO.teamId, userId: DEMO.member, channelId: DEMO.general, text });
const unfurlCalls = () => stack.slack.calls({ method: "chat.unfurl" });

describe("link unfurls", () => {
  it("no unfurl in a workspace without a platform key, even for a dashboard link", async () => {
    const shared = await post(`numbers: <${platform}/dashboard?range=last30d>`);
    expect(shared.delivered?.status).toBe(200);
    // The event was handled (the app looked the key up) and nothing was unfurled.
    await stack.slack.waitFor(() => stack.logLines.find((l) => l.includes("without a platform key")));
    expect(unfurlCalls()).toEqual([]);
    expect(stack.slack.linkShare(shared.unfurlId as string)?.unfurls).toEqual({});
  });

  it("a dashboard link with a range and filters unfurls as a compact digest with the emulator's numbers", async () => {
    const since = stack.clock();
    await connect(stack);
    const account = accountFor(DEMO_API_KEY);
    const asset = account?.assets.find((a) => a.displayValue.includes(" / "));
    if (!account || !asset) throw new Error("the demo account has no nested asset");
    const url = `${platform}/dashboard?range=last30d&asset=${encodeURIComponent(asset.displayValue)}`;
    const requestsBefore = stack.emulator.requestCount();
    const shared = await post(`look <${url}|here> and <https://example.org/elsewhere>`);
    expect(shared.delivered?.status).toBe(200);
    const share = stack.slack.linkShare(shared.unfurlId as string);
    // Only the platform's link reached the app; the other host never leaves Slack.
    expect(share?.links.map((l) => l.url)).toEqual([url]);
    const unfurl = await stack.slack.waitFor(
      () => stack.slack.linkShare(shared.unfurlId as string)?.unfurls[url],
    );
    const call = unfurlCalls().at(-1);
    expect(call).toMatchObject({ ok: true, args: { channel: DEMO.general, ts: shared.ts } });
    const blocks = unfurl.blocks as unknown[];
    expect(checkMessage({ blocks })).toEqual([]);
    // The member is in America/Los_Angeles: the range resolves in their zone.
    const range = rangeResolvedSince("last30d", "America/Los_Angeles", since, blocks, stack.clock);
    let findings = 0;
    let violations = 0;
    for (const day of enumerateDays(range.from, range.to)) {
      const c = dailyCounts(account, day, [asset.value]);
      findings += c.findings;
      violations += c.violations;
    }
    const text = JSON.stringify(blocks);
    expect(text).toContain(range.label);
    expect(text).toContain(`*Findings*\\n${formatCount(findings)}`);
    expect(text).toContain(`*Violations*\\n${formatCount(violations)}`);
    expect(text).toContain(asset.displayValue.split(" / ")[1]);
    expect(stack.emulator.requestCount()).toBeGreaterThan(requestsBefore);

    // The same link again: the cached unfurl, no new question to the service.
    const requestsAfter = stack.emulator.requestCount();
    const again = await post(`again ${url}`);
    await stack.slack.waitFor(() => stack.slack.linkShare(again.unfurlId as string)?.unfurls[url]);
    expect(stack.slack.linkShare(again.unfurlId as string)?.unfurls[url]).toEqual(unfurl);
    expect(stack.emulator.requestCount()).toBe(requestsAfter);
  });

  it("an unrelated link brings no event and no unfurl", async () => {
    const calls = unfurlCalls().length;
    const shared = await post("see <https://news.example.org/story?range=last30d>");
    expect(shared.delivered).toBeUndefined();
    expect(shared.unfurlId).toBeUndefined();
    expect(unfurlCalls()).toHaveLength(calls);
  });

  it("an unknown path on the platform, or another host in a link_shared event, is not unfurled", async () => {
    const calls = unfurlCalls().length;
    const settings = await post(`${platform}/settings/api-keys`);
    expect(settings.delivered?.status).toBe(200);
    // A link_shared for a host the app does not serve (another unfurl domain of the same app).
    const other = await stack.slack.sendEvent({
      teamId: DEMO.teamId,
      event: {
        type: "link_shared",
        channel: DEMO.general,
        user: DEMO.member,
        message_ts: "1700000000.000100",
        unfurl_id: "C0GENERAL.1700000000.000100.abc",
        source: "conversations_history",
        links: [{ domain: "app.example.com", url: "https://app.example.com/dashboard?range=last7d" }],
      },
    });
    expect(other.status).toBe(200);
    // A dashboard link afterwards is unfurled: the two above were handled, and made no call.
    const url = `${platform}/insights`;
    const shared = await post(url);
    await stack.slack.waitFor(() => stack.slack.linkShare(shared.unfurlId as string)?.unfurls[url]);
    expect(unfurlCalls()).toHaveLength(calls + 1);
    expect(stack.slack.linkShare(settings.unfurlId as string)?.unfurls).toEqual({});
  });
});
