import { afterEach, describe, expect, it } from "vitest";
import { type AccountSpec, buildAccount, dailyCounts } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { formatRate } from "../../src/insights/format.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { backends } from "../setup/backends.ts";
import { connectKey, type Harness, insertSubscription, runCheck, startHarness } from "./worker-harness.ts";

/**
 * A fix-rate alert with a real worker on real Redis and the analytics emulator: a day whose fix rate
 * is under the threshold fires it with the rate and the threshold in its message, a day with no
 * violations and no fixes (no rate at all) holds it firing without a word, and a day over the
 * threshold clears it. The days are picked from the emulator's own counts (its oracle), for a small
 * account whose days are often empty; the alert reads `yesterday`, one day at a time.
 */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEY = "fixrate-alert-small";
const SMALL: AccountSpec = { apiKey: KEY, assetCount: 1, scannerCount: 1 };
const CONDITION = "when fixrate < 40%";

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const posts = (harness: Harness) =>
  harness.slack.calls((c) => c.method === "chat.postMessage" && c.ok && c.args.channel === DEMO.security);
const top = (harness: Harness) => posts(harness).filter((c) => c.args.thread_ts === undefined);
const replies = (harness: Harness) => posts(harness).filter((c) => c.args.thread_ts !== undefined);

type Kind = "under" | "none" | "over";

/**
 * Three checks in order, each at 01:00 of a day whose yesterday is of the kind asked: a rate under
 * 40 %, no rate (nothing violated or fixed), a rate over 40 %; with the rate as the digest shows it.
 */
function pickDays(today0: number): { at: number; kind: Kind; rate: string }[] {
  const account = buildAccount(SMALL);
  const wanted: Kind[] = ["under", "none", "over"];
  const out: { at: number; kind: Kind; rate: string }[] = [];
  for (let back = 120; back >= 1 && out.length < wanted.length; back--) {
    const at = today0 - back * DAY + HOUR;
    const c = dailyCounts(account, dayOf(at - DAY));
    const handled = c.violations + c.fixedViolations;
    const rate = handled > 0 ? c.fixedViolations / handled : null;
    const kind: Kind =
      rate === null ? "none" : rate < 0.35 ? "under" : rate > 0.45 ? "over" : ("mid" as Kind);
    if (kind === wanted[out.length]) out.push({ at, kind, rate: formatRate(rate) });
  }
  if (out.length < wanted.length)
    throw new Error(`no days of each kind in the last 120: ${JSON.stringify(out)}`);
  return out;
}

describe.each(backends())("fix-rate alerts ($name)", ({ url }) => {
  it("fires under the threshold with the rate in its message, holds over a day with no rate, clears over it", {
    timeout: 120_000,
  }, async () => {
    h = await startHarness({ redisUrl: url, emulator: { accounts: [SMALL] } });
    const harness = h;
    await harness.worker();
    await connectKey(harness, KEY);
    const sub = await insertSubscription(harness, {
      mode: "alert",
      condition: CONDITION,
      range: "yesterday",
      tz: "UTC",
      chart: "off",
    });
    const today0 = Math.floor(harness.clock().getTime() / DAY) * DAY;
    const [under, none, over] = pickDays(today0);
    if (!under || !none || !over) throw new Error("three days expected");

    const fired = await runCheck(harness, sub, periodOf(under.at));
    expect(fired.runs?.alert).toMatchObject({ state: "firing", episode: { id: periodOf(under.at) } });
    // Slack's mrkdwn reads "<" as the start of a link: the text carries it escaped, and shows "<".
    expect(top(harness).map((c) => String(c.args.text))).toEqual([
      `Alert: fix rate ${under.rate} &lt; 40% (when fixrate &lt; 40%)`,
    ]);

    // No violations and no fixes: no rate, so no verdict; the episode stays open and nothing is said.
    const held = await runCheck(harness, sub, periodOf(none.at));
    expect(held.lastDelivery).toMatchObject({
      outcome: "skipped",
      reason: expect.stringMatching(
        /^fix rate unknown: no violations and no fixes in the period .*the alert stays firing$/,
      ),
    });
    expect(held.runs?.alert?.state).toBe("firing");
    expect(posts(harness)).toHaveLength(1);

    const cleared = await runCheck(harness, sub, periodOf(over.at));
    expect(cleared.runs?.alert?.state).toBe("clear");
    expect(top(harness)).toHaveLength(1);
    expect(replies(harness).map((c) => String(c.args.text))).toEqual([
      expect.stringContaining(`fix rate ${over.rate} not &lt; 40%`),
    ]);
  });
});
