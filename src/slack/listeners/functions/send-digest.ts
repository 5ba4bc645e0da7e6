import { digestMessage } from "../../../../templates/digest-message.ts";
import { readStepInputs } from "../../../digests/step-request.ts";
import { AppError } from "../../../errors.ts";
import { STEP } from "../../../ids.ts";
import { codeOf } from "../../../metrics.ts";
import { onFunction } from "../../frame/index.ts";
import { sendWithFallback } from "../../refusal.ts";

/** Workflow steps have no person to take a timezone from: ranges are UTC days, as the manifest says. */
const STEP_TZ = "UTC";

/** Slack's refusals of a post that the workflow's owner can fix, in their words. */
function postRefusal(err: unknown, channelId: string): AppError | undefined {
  const code = codeOf(err);
  if (code === "not_in_channel")
    return new AppError(
      "not_in_channel",
      `Insights is not in <#${channelId}>: invite @Insights there, then run the workflow again.`,
    );
  if (code === "channel_not_found")
    return new AppError(
      "not_in_channel",
      "Insights cannot see the chosen channel: invite @Insights to it, or pick another.",
    );
  if (code === "is_archived")
    return new AppError(
      "not_in_channel",
      "The chosen channel is archived: pick another channel for the digest.",
    );
  return undefined;
}

/**
 * "Send insights digest": posts the digest for the inputs' range and filters to the chosen channel
 * and hands the message link and the headline numbers to the workflow's next steps. A workspace
 * without a platform API key, a bad range or an unknown filter fails the step with what to fix.
 */
export const sendDigestStep = onFunction({
  id: STEP.sendDigest,
  async run(ctx) {
    const request = readStepInputs(ctx.inputs);
    const { view, range } = await ctx.deps.digests.build({
      ref: ctx.ref,
      range: request.range,
      tz: STEP_TZ,
      now: ctx.deps.clock(),
      assetNames: request.assetNames,
      scannerNames: request.scannerNames,
      shareable: false,
      attribution: "Posted by a workflow",
    });
    let ts: string;
    try {
      const posted = await sendWithFallback(
        digestMessage(view),
        () => digestMessage({ ...view, chartStyle: "off" }),
        (message) => ctx.client.chat.postMessage({ channel: request.channelId, ...message }),
        (refusal) => ctx.log.warn({ refusal }, "chart or table refused; the step posts the digest as text"),
      );
      ts = String(posted.ts);
    } catch (err) {
      throw postRefusal(err, request.channelId) ?? err;
    }
    const link = await ctx.client.chat.getPermalink({ channel: request.channelId, message_ts: ts });
    const { digest } = view;
    return {
      message_ts: ts,
      message_link: String(link.permalink),
      range_label: range.label,
      findings: digest.findings.current,
      violations: digest.violations.current,
      fixes: digest.fixes,
      merged_violations: digest.mergedViolations,
    };
  },
});
