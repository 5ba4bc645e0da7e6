import type { ChartInput } from "../chart/types.ts";
import { scheduledChartInput } from "../digests/chart-input.ts";
import { AppError, isAppError } from "../errors.ts";
import type { DigestView } from "../insights/types.ts";
import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { Subscription } from "../subscriptions/types.ts";
import { uploadChart } from "./chart-upload.ts";
import type { Pacer } from "./pacing.ts";
import { type SlackApi, SlackCallError } from "./slack-api.ts";

/**
 * The chart of a scheduled digest goes into the message only once Slack has processed the uploaded
 * file: right after files.completeUploadExternal Slack is still scanning it, and a message whose image
 * block names it is refused (`invalid_blocks`). files.info tells when it is done: processing fills in
 * the file's `mimetype`. The wait is bounded; past it the digest goes out without the chart and the
 * outcome says so.
 */

/**
 * What became of a digest's chart; recorded on the delivery (when not as planned) and counted in
 * `insights_charts_total`. `native`: Slack drew it (a chart block, no file); `png_fallback`: Slack
 * refused the chart or table block and the image went out instead.
 */
export type ChartOutcome =
  | "native"
  | "png_fallback"
  | "attached"
  | "unchecked"
  | "off"
  | "render_failed"
  | "upload_failed"
  | "not_ready"
  | "check_failed"
  | "refused"
  | "paced";

/** How long to wait for Slack to process the chart. */
export interface ChartWait {
  /** Give up after this long [8 s]. */
  timeoutMs: number;
  /** First look at files.info after this long; doubles up to `maxPollMs` [250 ms, 2 s]. */
  firstPollMs: number;
  maxPollMs: number;
  /** Without files:read, attach after this long and let Slack say whether it is ready [2 s]. */
  uncheckedGraceMs: number;
}

export const DEFAULT_CHART_WAIT: ChartWait = {
  timeoutMs: 8_000,
  firstPollMs: 250,
  maxPollMs: 2_000,
  uncheckedGraceMs: 2_000,
};

/** What attaching a chart needs (a subset of the delivery's dependencies). */
export interface ChartDeps {
  slack: SlackApi;
  /** Renders the trend chart; unset = text-only digests (CHARTS=off). */
  renderChart?: (input: ChartInput) => Uint8Array;
  logger: Logger;
  chartWait?: Partial<ChartWait>;
  /** The workspace's Slack budgets (files.* calls); unset = unpaced. */
  pacer?: Pick<Pacer, "take" | "throttled">;
}

/** A digest ready to post and what became of its chart. */
export interface PreparedDigest {
  view: DigestView;
  chart: ChartOutcome;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Slack fills in an image's mimetype once it has processed the file. */
export function fileIsReady(reply: Record<string, unknown>): boolean {
  const file = reply.file as { mimetype?: unknown } | undefined;
  return typeof file?.mimetype === "string" && file.mimetype.startsWith("image/");
}

/** Polls files.info until the file is ready (true) or the wait is over (false). */
export async function waitForFile(
  slack: SlackApi,
  token: string,
  fileId: string,
  wait: ChartWait,
): Promise<boolean> {
  const deadline = Date.now() + wait.timeoutMs;
  let pause = wait.firstPollMs;
  for (;;) {
    await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
    if (fileIsReady(await slack.call(token, "files.info", { file: fileId }))) return true;
    if (Date.now() >= deadline) return false;
    pause = Math.min(pause * 2, wait.maxPollMs);
  }
}

/**
 * The chart's Slack calls, each taking its budget first (pacing.ts: files.* are per-workspace method
 * tiers): an empty budget is waited for while the chart's wait allows, and past `deadline` the call
 * is not made (`paced`); a 429 holds that method of the workspace for Retry-After.
 */
function pacedSlack(deps: ChartDeps, ref: WorkspaceRef, deadline: number): SlackApi {
  const { pacer, slack } = deps;
  if (!pacer) return slack;
  return {
    upload: (url, bytes, type) => slack.upload(url, bytes, type),
    async call(token, method, args) {
      for (let v = await pacer.take(ref, method); !v.ok; v = await pacer.take(ref, method)) {
        if (Date.now() + v.waitMs > deadline)
          throw new AppError(
            "paced",
            `Slack's ${method} budget for this workspace is spent for another ${Math.ceil(v.waitMs / 1000)} s`,
          );
        await sleep(v.waitMs);
      }
      try {
        return await slack.call(token, method, args);
      } catch (err) {
        if (err instanceof SlackCallError && err.status === 429)
          await pacer.throttled(ref, method, err.retryAfterMs ?? 1_000);
        throw err;
      }
    },
  };
}

/**
 * Renders, uploads and waits for the chart; the view carries it only when Slack can show it. Never
 * throws: a digest without its chart beats no digest, and the outcome tells what happened.
 */
export async function attachChart(
  deps: ChartDeps,
  sub: Subscription,
  token: string,
  view: DigestView,
): Promise<PreparedDigest> {
  if (!deps.renderChart) return { view, chart: "off" };
  const log = deps.logger.child({ subId: sub.id });
  const title = `Daily trend · ${view.digest.range.label}`;
  const altText = `Daily findings, violations and fixes, ${view.digest.range.label}`;
  let png: Uint8Array;
  try {
    // The previous period's faint line and today's shading come with the scheduled chart input.
    png = deps.renderChart(scheduledChartInput(view, sub.filterLabels));
  } catch (err) {
    log.warn({ err }, "chart rendering failed; posting the digest as text");
    return { view, chart: "render_failed" };
  }
  const wait = { ...DEFAULT_CHART_WAIT, ...deps.chartWait };
  const slack = pacedSlack(deps, sub.ref, Date.now() + wait.timeoutMs);
  let fileId: string;
  try {
    fileId = await uploadChart(slack, token, {
      png,
      filename: `insights-${sub.id}.png`,
      title,
      altText,
    });
  } catch (err) {
    if (isAppError(err) && err.code === "paced") {
      log.info(
        { why: err.message },
        "no Slack budget for the chart's upload in time; posting the digest as text",
      );
      return { view, chart: "paced" };
    }
    log.warn({ err }, "chart upload failed; posting the digest as text");
    return { view, chart: "upload_failed" };
  }
  try {
    if (!(await waitForFile(slack, token, fileId, wait))) {
      log.warn(
        { waitedMs: wait.timeoutMs },
        "Slack had not processed the chart in time; posting the digest as text",
      );
      return { view, chart: "not_ready" };
    }
  } catch (err) {
    if (isAppError(err) && err.code === "paced") {
      log.warn("no Slack budget to check the chart's processing in time; posting the digest as text");
      return { view, chart: "not_ready" };
    }
    const reason = err instanceof SlackCallError ? err.slackError : "error";
    if (reason === "missing_scope") {
      // Installed before files:read was requested: no way to ask. Give Slack a moment and attach;
      // if it still refuses the image, the post is retried without it (outcome `refused`).
      log.info("no files:read scope to check the chart; attaching it after a grace period");
      await sleep(wait.uncheckedGraceMs);
      return { view: { ...view, chart: { slackFileId: fileId, altText } }, chart: "unchecked" };
    }
    log.warn({ err, reason }, "could not check the chart's processing; posting the digest as text");
    return { view, chart: "check_failed" };
  }
  return { view: { ...view, chart: { slackFileId: fileId, altText } }, chart: "attached" };
}
