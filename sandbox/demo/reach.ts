import { STEP } from "../../src/ids.ts";
import { DEMO, type Stack } from "../stack.ts";
import type { createDemoOutput } from "./output.ts";

type Output = ReturnType<typeof createDemoOutput>;

/**
 * The ways into Slack beyond the slash command: the Workflow Builder step, link unfurls, and (with
 * `--socket`) Slack refreshing the app's WebSocket mid-session. Runs after the main flows, with the
 * key connected. Returns how many steps it showed.
 */
export async function playReach(stack: Stack, out: Output, first: number): Promise<number> {
  const slack = stack.slack;
  let n = first;
  out.step(`${n++}. A Monday workflow runs the custom step "Send insights digest" (#security, last 7 days)`);
  const run = await slack.executeStep({
    teamId: DEMO.teamId,
    callbackId: STEP.sendDigest,
    inputs: { channel_id: DEMO.security, range: "last7d" },
  });
  const done = await slack.waitFor(
    () => {
      const e = slack.stepExecution(run.executionId);
      return e && e.status !== "running" ? e : undefined;
    },
    { timeoutMs: 15_000, what: "the workflow step to finish" },
  );
  if (done.status !== "completed") throw new Error(`the workflow step failed: ${done.error}`);
  const posted = slack.messages(DEMO.security).find((m) => m.ts === done.outputs?.message_ts);
  if (posted) out.message("Digest posted by the workflow step", { text: posted.text, blocks: posted.blocks });
  out.note(
    `Step outputs for the next steps (checked against manifest.yaml): ${JSON.stringify(done.outputs)}`,
  );

  out.step(`${n++}. A member pastes a dashboard link in #general: the app unfurls it`);
  const url = `${stack.emulator.appUrl}/dashboard?range=last30d&scanner=sast`;
  const shared = await slack.postLinks({
    teamId: DEMO.teamId,
    userId: DEMO.member,
    channelId: DEMO.general,
    text: `Numbers for the review: ${url}`,
  });
  const unfurl = await slack.waitFor(() => slack.linkShare(shared.unfurlId ?? "")?.unfurls[url], {
    what: "the unfurl",
  });
  out.message(`Unfurl of ${url}`, unfurl);

  if (slack.transport === "socket") {
    out.step(
      `${n++}. Slack refreshes the app's WebSocket (disconnect: refresh_requested); the app reconnects`,
    );
    const before = slack.socketConnections().length;
    const started = Date.now();
    slack.disconnectSocket("refresh_requested");
    await slack.waitFor(() => slack.socketConnections().every((c) => c.state !== "open"));
    const next = await slack.waitForSocket(20_000);
    out.note(
      `Connection #${next.id} open ${((Date.now() - started) / 1000).toFixed(1)} s later (${before} before). Bolt waits ~5 s before reconnecting; Slack answers commands in that gap with dispatch_failed.`,
    );
    const sent = await slack.sendCommand({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      channelId: DEMO.general,
      text: "status",
    });
    const reply = await slack.waitFor(() => slack.responses(sent.responseUrl)[0], {
      what: "a reply after the reconnect",
    });
    out.message("/insights status, answered over the new connection", reply.body);
    const envelopes = slack.envelopes();
    out.note(
      `${envelopes.length} envelopes over Socket Mode, ${envelopes.filter((e) => e.outcome === "acked").length} acked, none twice: ${envelopes.every((e) => e.acks <= 1)}.`,
    );
  }
  return n - first;
}
