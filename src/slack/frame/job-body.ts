import type { InteractiveJob } from "../../interactive/types.ts";

/**
 * A handed-off request as its handler reads it: the Slack payload's shape rebuilt from the job's
 * named fields, so the same entry runs on either side of the hand-off. Only what the job carries is
 * in it (no clicked message's blocks, no token; a modal's values only for its submission's work).
 */
export function bodyOf(job: InteractiveJob, commandName: string): Record<string, unknown> {
  const { team, surface: s } = job;
  if (job.route.kind === "command")
    return {
      command: commandName,
      text: job.command?.text ?? "",
      team_id: team.teamId,
      ...(team.enterpriseId ? { enterprise_id: team.enterpriseId } : {}),
      is_enterprise_install: String(Boolean(team.isEnterpriseInstall)),
      user_id: job.userId,
      ...(s.channelId ? { channel_id: s.channelId } : {}),
      ...(job.command?.channelName ? { channel_name: job.command.channelName } : {}),
      ...(job.responseUrl ? { response_url: job.responseUrl } : {}),
    };
  if (job.route.kind === "message") {
    const m = job.message;
    return {
      type: "event_callback",
      team_id: team.teamId,
      event: {
        type: job.route.id,
        user: job.userId,
        ...(m
          ? {
              channel: m.channelId,
              channel_type: m.dm ? "im" : "channel",
              ts: m.ts,
              thread_ts: m.threadTs,
              text: m.text,
            }
          : {}),
      },
    };
  }
  const teamFields = {
    team: team.teamId
      ? { id: team.teamId, ...(team.enterpriseId ? { enterprise_id: team.enterpriseId } : {}) }
      : null,
    enterprise: team.enterpriseId ? { id: team.enterpriseId } : null,
    is_enterprise_install: Boolean(team.isEnterpriseInstall),
    user: { id: job.userId, team_id: team.teamId },
  };
  if (job.route.kind === "view")
    return {
      type: "view_submission",
      ...teamFields,
      view: {
        id: s.viewId,
        type: s.viewType ?? "modal",
        callback_id: job.route.id,
        state: { values: job.submission?.values ?? {} },
        private_metadata: job.submission?.privateMetadata ?? "",
      },
    };
  if (job.route.kind === "event" || job.route.kind === "function")
    return {
      type: "event_callback",
      team_id: team.teamId,
      event:
        job.route.kind === "function"
          ? {
              type: "function_executed",
              function: { callback_id: job.route.id },
              function_execution_id: job.step?.executionId,
              inputs: job.step?.inputs ?? {},
            }
          : job.event,
    };
  return {
    type: "block_actions",
    ...teamFields,
    ...(s.channelId ? { channel: { id: s.channelId } } : {}),
    container: {
      type: s.container ?? "message",
      ...(s.channelId ? { channel_id: s.channelId } : {}),
      ...(s.messageTs ? { message_ts: s.messageTs } : {}),
      ...(s.threadTs ? { thread_ts: s.threadTs } : {}),
      ...(s.viewId ? { view_id: s.viewId } : {}),
      is_ephemeral: s.ephemeral === true,
    },
    // Slack leaves an ephemeral message out of the payload; a message others see names its ts and thread.
    ...(s.messageTs && !s.ephemeral
      ? { message: { ts: s.messageTs, ...(s.threadTs ? { thread_ts: s.threadTs } : {}) } }
      : {}),
    ...(s.viewId ? { view: { id: s.viewId, type: s.viewType, callback_id: s.viewCallbackId ?? "" } } : {}),
    ...(job.responseUrl ? { response_url: job.responseUrl } : {}),
    actions: [job.action ?? {}],
  };
}
