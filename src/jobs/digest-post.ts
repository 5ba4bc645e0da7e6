import { digestMessage } from "../../templates/digest-message.ts";
import type { DigestService } from "../digests/digest-service.ts";
import { scheduledExtras } from "../digests/scheduled.ts";
import type { DigestView } from "../insights/types.ts";
import { scheduleText } from "../subscriptions/schedule.ts";
import type { Subscription } from "../subscriptions/types.ts";
import { attachChart, type ChartDeps, type ChartOutcome, type PreparedDigest } from "./chart-ready.ts";
import { SlackCallError } from "./slack-api.ts";

/** What building and posting a digest needs. */
export interface DigestPostDeps extends ChartDeps {
  digests: Pick<DigestService, "build">;
}

/** Marks our messages so a later check (conversations.history) can tell a delivery was already posted. */
export const DIGEST_EVENT_TYPE = "insights_digest";

/**
 * A built digest, ready to post; built before the post so analytics errors never reach the channel.
 * The range is resolved at `asOf`, the run's fire time, so a retry or a late catch-up shows the
 * period the run was for, not whatever "last 7 days" means when it finally goes out.
 */
export async function buildDigestView(
  deps: DigestPostDeps,
  sub: Subscription,
  token: string,
  asOf: Date,
): Promise<PreparedDigest> {
  const { view } = await deps.digests.build({
    ref: sub.ref,
    range: sub.range,
    tz: sub.tz,
    now: asOf,
    assetIds: sub.assetIds,
    scannerIds: sub.scannerIds,
    attribution: `Scheduled digest · ${scheduleText(sub.schedule, sub.time, sub.tz)}`,
    ...scheduledExtras(sub, deps.renderChart !== undefined),
  });
  return attachChart(deps, sub, token, view);
}

/**
 * Posts the digest; if Slack still refuses its image (`invalid_blocks`), the post is retried once
 * without it and the chart's outcome becomes `refused`.
 */
export async function postDigest(
  deps: DigestPostDeps,
  sub: Subscription,
  token: string,
  prepared: PreparedDigest,
  deliveryId: string,
): Promise<{ ts: string; chart: ChartOutcome }> {
  const { view } = prepared;
  const post = async (v: DigestView) => {
    const { blocks, text } = digestMessage(v);
    const reply = await deps.slack.call(token, "chat.postMessage", {
      channel: sub.channelId,
      text,
      blocks,
      unfurl_links: false,
      metadata: { event_type: DIGEST_EVENT_TYPE, event_payload: { delivery: deliveryId } },
    });
    return String(reply.ts ?? "");
  };
  try {
    return { ts: await post(view), chart: prepared.chart };
  } catch (err) {
    if (!(err instanceof SlackCallError) || err.slackError !== "invalid_blocks" || !view.chart) throw err;
    deps.logger.warn({ subId: sub.id }, "digest with chart refused (invalid_blocks); posting without it");
    const { chart: _chart, ...textOnly } = view;
    return { ts: await post(textOnly), chart: "refused" };
  }
}

/**
 * The ts of this delivery's digest if it is already in the channel (found by its metadata), else null.
 * Used only when a worker takes over a delivery another may have posted before dying. Without the
 * history scope (`missing_scope`) or on any other error it answers null: posting again is the
 * lesser harm than losing the digest.
 */
export async function findPosted(
  deps: DigestPostDeps,
  sub: Subscription,
  token: string,
  deliveryId: string,
  sinceMs: number,
): Promise<string | null> {
  try {
    const reply = await deps.slack.call(token, "conversations.history", {
      channel: sub.channelId,
      oldest: String(Math.floor(sinceMs / 1000) - 60),
      include_all_metadata: true,
      limit: 200,
    });
    const messages = Array.isArray(reply.messages) ? (reply.messages as Record<string, unknown>[]) : [];
    const found = messages.find((m) => {
      const meta = m.metadata as { event_type?: unknown; event_payload?: { delivery?: unknown } } | undefined;
      return meta?.event_type === DIGEST_EVENT_TYPE && meta.event_payload?.delivery === deliveryId;
    });
    return found && typeof found.ts === "string" ? found.ts : null;
  } catch (err) {
    deps.logger.warn({ err, subId: sub.id }, "could not check the channel for an earlier post; posting");
    return null;
  }
}
