import { digestMessage } from "../../templates/digest-message.ts";
import { isDm } from "../../templates/subscription-words.ts";
import { refusesNative } from "../blockkit/native.ts";
import type { DigestService } from "../digests/digest-service.ts";
import { scheduledExtras } from "../digests/scheduled.ts";
import { assetIdsOfGroups } from "../insights/asset-groups.ts";
import type { DigestView } from "../insights/types.ts";
import { scheduleText } from "../subscriptions/schedule.ts";
import type { Subscription } from "../subscriptions/types.ts";
import { attachChart, type ChartDeps, type ChartOutcome, type PreparedDigest } from "./chart-ready.ts";
import { CHANNEL_OR_TOKEN_GONE } from "./failures.ts";
import type { Pacer } from "./pacing.ts";
import { SlackCallError } from "./slack-api.ts";

/** Outcomes after which the digest shows its chart as planned (nothing to record). */
export const CHART_AS_PLANNED: ReadonlySet<ChartOutcome> = new Set(["native", "attached", "off"]);

/** What building and posting a digest needs. */
export interface DigestPostDeps extends ChartDeps {
  digests: Pick<DigestService, "build">;
}

/** Marks our messages so a later check (conversations.history) can tell a delivery was already posted. */
export const DIGEST_EVENT_TYPE = "insights_digest";

/**
 * A run's digest, built before anything is posted so analytics errors never reach the channel. The
 * range is resolved at `asOf`, the run's fire time, so a retry or a late catch-up shows the period
 * the run was for, not whatever "last 7 days" means when it finally goes out. The chart comes after
 * (attachChart), once the run knows it will post.
 */
export async function buildView(
  deps: Pick<DigestPostDeps, "digests" | "renderChart">,
  sub: Subscription,
  asOf: Date,
): Promise<DigestView> {
  const { view } = await deps.digests.build({
    ref: sub.ref,
    range: sub.range,
    tz: sub.tz,
    now: asOf,
    assetIds: sub.assetIds,
    // Resolved to this run's assets of each group; a group gone stops the run (group_gone).
    ...(sub.assetGroups?.length ? { assetGroups: sub.assetGroups } : {}),
    scannerIds: sub.scannerIds,
    attribution: `${isDm(sub.channelId) ? "Your personal digest" : "Scheduled digest"} · ${scheduleText(sub.schedule, sub.time, sub.tz)}`,
    ...scheduledExtras(sub),
  });
  return view;
}

/** The asset ids a run's digest asked for: the subscription's own and its groups' assets of that run. */
export function runAssetIds(sub: Subscription, view: DigestView): string[] {
  if (!sub.assetGroups?.length) return sub.assetIds;
  return [...new Set([...sub.assetIds, ...assetIdsOfGroups(view.filters.assets ?? [], sub.assetGroups)])];
}

/** The message metadata that marks a delivery, so a takeover can find it (findPosted). */
export const deliveryMetadata = (deliveryId: string) => ({
  event_type: DIGEST_EVENT_TYPE,
  event_payload: { delivery: deliveryId },
});

/** Where a digest goes: a new message (in a thread, with `threadTs`) or an edit of `ts`. */
export type Placement = { kind: "post"; threadTs?: string } | { kind: "update"; ts: string };

/** A posted digest: its ts, what became of its chart, and what went out (after any fallback). */
export interface Posted {
  ts: string;
  chart: ChartOutcome;
  prepared: PreparedDigest;
}

/**
 * Posts (or edits) the digest. If Slack refuses its chart or table block (`invalid_blocks` naming
 * one), the call is retried once with today's image path: the PNG rendered, uploaded and checked,
 * the drivers in words, and the outcome `png_fallback` (or why the image did not make it either).
 * If Slack still refuses an image, the call is retried once without it (`refused`).
 */
export async function postDigest(
  deps: Pick<DigestPostDeps, "slack" | "logger" | "renderChart" | "chartWait" | "pacer">,
  sub: Subscription,
  token: string,
  prepared: PreparedDigest,
  deliveryId: string,
  placement: Placement = { kind: "post" },
): Promise<Posted> {
  const { view } = prepared;
  const post = async (v: DigestView) => {
    const { blocks, text } = digestMessage(v);
    const common = { channel: sub.channelId, text, blocks, metadata: deliveryMetadata(deliveryId) };
    if (placement.kind === "update") {
      await deps.slack.call(token, "chat.update", { ...common, ts: placement.ts });
      return placement.ts;
    }
    const reply = await deps.slack.call(token, "chat.postMessage", {
      ...common,
      unfurl_links: false,
      ...(placement.threadTs ? { thread_ts: placement.threadTs } : {}),
    });
    return String(reply.ts ?? "");
  };
  try {
    return { ts: await post(view), chart: prepared.chart, prepared };
  } catch (err) {
    if (!(err instanceof SlackCallError) || err.slackError !== "invalid_blocks") throw err;
    const refusal = { error: err.slackError, messages: err.messages };
    if (view.chartStyle === "native" && refusesNative(refusal, digestMessage(view).blocks)) {
      deps.logger.warn(
        { subId: sub.id, refused: err.messages.slice(0, 3) },
        "Slack refused the digest's chart or table block; posting it with the image instead",
      );
      const png = await attachChart(deps, sub, token, { ...view, chartStyle: "png" });
      const shown = png.chart === "attached" || png.chart === "unchecked";
      const fallback = { view: png.view, chart: shown ? ("png_fallback" as const) : png.chart };
      return postDigest(deps, sub, token, fallback, deliveryId, placement);
    }
    if (!view.chart) throw err;
    deps.logger.warn({ subId: sub.id }, "digest with chart refused (invalid_blocks); posting without it");
    const { chart: _chart, ...textOnly } = view;
    const refused = { view: textOnly, chart: "refused" as const };
    return { ts: await post(textOnly), chart: "refused", prepared: refused };
  }
}

/** What the takeover check learned: the earlier post, its absence, or nothing yet (ask again later). */
export type Takeover =
  | { kind: "found"; ts: string }
  | { kind: "absent" }
  | { kind: "unknown"; waitMs: number; cursor?: string; why: string };

/** Slack's largest `conversations.history` page for apps outside the Marketplace (since 2025). */
export const HISTORY_PAGE = 15;

/** Slack errors after which a post would fail the same way: the post itself then reports them. */
const POST_WOULD_FAIL = new Set(CHANNEL_OR_TOKEN_GONE);

/** What the takeover check needs besides Slack. */
export interface TakeoverDeps extends Pick<DigestPostDeps, "slack" | "logger"> {
  pacer: Pacer;
  /** How long a post can take after its lease was noted: bounds the window searched [lease + 70 s]. */
  windowMs: number;
}

/**
 * Whether this delivery's digest is already in the channel, found by its metadata. Used only when a
 * worker takes over a delivery whose post may have gone out before its worker died. Never guesses:
 * a 429, an error, a missing scope or an empty pacing budget answers `unknown` with how long to wait,
 * and the job asks again then (a blind post could be a duplicate). It reads pages of at most 15
 * messages (Slack's limit for apps outside the Marketplace), bounded by `oldest` = when the post was
 * about to go out and `latest` = that plus the longest a post can take; a page Slack says has more
 * leaves its cursor for the next try. A reply in a thread is looked for among the thread's replies
 * (conversations.replies: history lists only top-level messages), under the same limits.
 */
export async function findPosted(
  deps: TakeoverDeps,
  sub: Subscription,
  token: string,
  deliveryId: string,
  sinceMs: number,
  cursor?: string,
  threadTs?: string,
): Promise<Takeover> {
  let next = cursor;
  const method = threadTs ? "conversations.replies" : "conversations.history";
  for (;;) {
    const pace = await deps.pacer.take(sub.ref, method);
    if (!pace.ok) return { kind: "unknown", waitMs: pace.waitMs, cursor: next, why: "paced" };
    let reply: Record<string, unknown>;
    try {
      reply = await deps.slack.call(token, method, {
        channel: sub.channelId,
        ...(threadTs ? { ts: threadTs } : {}),
        // A second of margin for the clocks of Redis (which noted the post) and Slack (which stamped it).
        oldest: ((sinceMs - 1_000) / 1000).toFixed(6),
        latest: ((sinceMs + deps.windowMs) / 1000).toFixed(6),
        include_all_metadata: true,
        limit: HISTORY_PAGE,
        ...(next ? { cursor: next } : {}),
      });
    } catch (err) {
      const slackError = err instanceof SlackCallError ? err.slackError : "unknown";
      if (err instanceof SlackCallError && err.status === 429) {
        const waitMs = err.retryAfterMs ?? 60_000;
        await deps.pacer.throttled(sub.ref, method, waitMs);
        return { kind: "unknown", waitMs, cursor: next, why: "ratelimited" };
      }
      // A thread that is gone holds no reply: the post starts a new one.
      if (POST_WOULD_FAIL.has(slackError) || slackError === "thread_not_found") return { kind: "absent" };
      deps.logger.warn(
        { err, subId: sub.id },
        "could not check the channel for an earlier post; asking again later",
      );
      return {
        kind: "unknown",
        waitMs: slackError === "missing_scope" ? 600_000 : 30_000,
        cursor: next,
        why: slackError,
      };
    }
    const messages = Array.isArray(reply.messages) ? (reply.messages as Record<string, unknown>[]) : [];
    const found = messages.find((m) => {
      const meta = m.metadata as { event_type?: unknown; event_payload?: { delivery?: unknown } } | undefined;
      return meta?.event_type === DIGEST_EVENT_TYPE && meta.event_payload?.delivery === deliveryId;
    });
    if (found && typeof found.ts === "string") return { kind: "found", ts: found.ts };
    const more = (reply.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor;
    if (reply.has_more !== true || typeof more !== "string" || more === "") return { kind: "absent" };
    next = more;
  }
}
