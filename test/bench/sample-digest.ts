import { type Account, buildAccount, computeInsights } from "../../sandbox/analytics/index.ts";
import type { InsightsResult } from "../../src/analytics/types.ts";
import { computeDigest } from "../../src/insights/compute-digest.ts";
import { parseRange } from "../../src/insights/ranges.ts";
import type { DigestView } from "../../src/insights/types.ts";

/** A digest view as the app builds it, from the emulator's own numbers (no I/O). */
export function viewOf(
  result: InsightsResult,
  range: string,
  now: Date,
  o: { tz?: string; shareable?: boolean; attribution?: string } = {},
): DigestView {
  const resolved = parseRange(range, { now, tz: o.tz ?? "UTC" });
  return {
    digest: computeDigest(result, resolved),
    filters: {
      assets: result.filters?.assetId ?? null,
      scanners: result.filters?.scannerId ?? null,
      selectedAssetIds: [],
      selectedScannerIds: [],
    },
    generatedAt: now.toISOString(),
    platformUrl: "https://platform.example.com",
    shareable: o.shareable ?? false,
    attribution: o.attribution,
  };
}

/** The emulator's reply for `account` over [from, to]. */
export function replyFor(account: Account, from: string, to: string, today: string): InsightsResult {
  return computeInsights(account, { fromDay: from, toDay: to }, today);
}

/** A scheduled digest for a storm workspace's account (the bare loop posts one of the same size). */
export function scheduledView(apiKey: string, range: string, now = new Date()): DigestView {
  const today = now.toISOString().slice(0, 10);
  const resolved = parseRange(range, { now, tz: "UTC" });
  const result = replyFor(buildAccount({ apiKey }), resolved.from, resolved.to, today);
  return viewOf(result, range, now, { attribution: "Scheduled digest · Daily at 09:00 UTC" });
}
