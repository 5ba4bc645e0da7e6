import { createInterface } from "node:readline/promises";
import { accountFor } from "../analytics/index.ts";
import { ACTION, BLOCK, chartInputFor, renderChartPng } from "../product.ts";
import { chooseOption } from "../slack/index.ts";
import { DEMO, DEMO_API_KEY, installViaOAuth, type Stack } from "../stack.ts";
import type { createDemoOutput } from "./output.ts";

type Output = ReturnType<typeof createDemoOutput>;

export interface DemoResult {
  steps: number;
  ackMs: number[];
  digests: number;
}

/** Runs `/insights <text>` as `userId` and waits for the first reply on its response_url. */
export async function slash(stack: Stack, text: string, userId: string, channelId: string = DEMO.general) {
  const sent = await stack.slack.sendCommand({ teamId: DEMO.teamId, userId, channelId, text });
  const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0], {
    timeoutMs: 15_000,
    what: `a reply to /insights ${text}`,
  });
  return { sent, body: reply.body as { text?: string; blocks?: unknown[] } };
}

/**
 * The product's main flows, played over real HTTP against the sandbox: install, connect the key in
 * the modal, an on-demand digest, an asset picked from the menu. Every message the Slack user would
 * see is printed and saved.
 */
export async function playDemo(stack: Stack, out: Output): Promise<DemoResult> {
  const ackMs: number[] = [];
  let digests = 0;

  out.step("1. An admin installs the app (OAuth: /slack/install → consent → /slack/oauth_redirect)");
  await installViaOAuth(stack, DEMO.teamId);
  out.note(
    `Installed in ${DEMO.teamName} (${DEMO.teamId}); installer recorded: ${await stack.web.deps.installerOf({ teamId: DEMO.teamId })}`,
  );

  out.step("2. The admin types `/insights connect` and pastes the platform API key into the modal");
  const before = stack.slack.views().length;
  const connect = await stack.slack.sendCommand({
    teamId: DEMO.teamId,
    userId: DEMO.admin,
    channelId: DEMO.general,
    text: "connect",
  });
  ackMs.push(connect.ackMs);
  const modal = await stack.slack.waitFor(
    () =>
      stack.slack
        .views()
        .slice(before)
        .find((v) => v.type === "modal"),
    { what: "the connect modal" },
  );
  out.message("Connect modal", modal.view, "modal");
  const submit = await stack.slack.sendViewSubmission({
    teamId: DEMO.teamId,
    userId: DEMO.admin,
    view: { id: modal.id },
    values: { [BLOCK.apiKey]: { [ACTION.apiKeyInput]: { type: "plain_text_input", value: DEMO_API_KEY } } },
  });
  if (submit.body && (submit.body as { response_action?: string }).response_action === "errors") {
    throw new Error(`the modal refused the key: ${JSON.stringify(submit.body)}`);
  }
  const confirmation = await stack.slack.waitFor(() => stack.slack.ephemerals(DEMO.admin).at(-1), {
    what: "the confirmation",
  });
  out.message("Connected (ephemeral)", { text: confirmation.text, blocks: confirmation.blocks });
  out.note(
    "The key was checked against the analytics service (introspection), then stored encrypted (AES-256-GCM).",
  );

  out.step("3. A member types `/insights last7d` (ranges resolve in their timezone, America/Los_Angeles)");
  const { sent, body } = await slash(stack, "last7d", DEMO.member);
  ackMs.push(sent.ackMs);
  digests += 1;
  out.message("Digest last7d (ephemeral, with Share button)", body);

  out.step("4. The member picks an asset in the dropdown: the same message is redrawn in place");
  const asset =
    accountFor(DEMO_API_KEY)?.assets.find((a) => a.displayValue.includes(" / ")) ??
    accountFor(DEMO_API_KEY)?.assets[0];
  if (!asset) throw new Error("the demo account has no assets");
  const pick = await stack.slack.sendBlockAction({
    teamId: DEMO.teamId,
    userId: DEMO.member,
    channelId: DEMO.general,
    responseUrl: sent.responseUrl,
    container: { is_ephemeral: true },
    actions: [chooseOption(body.blocks, ACTION.assetSelect, asset.value)],
  });
  ackMs.push(pick.ackMs);
  const replaced = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1], {
    what: "the redrawn digest",
  });
  digests += 1;
  out.message(`Digest narrowed to ${asset.displayValue}`, replaced.body);

  out.step(
    "5. The admin subscribes #security to a weekly digest: `/insights subscribe weekly mon 09:00 Europe/Berlin last7d`",
  );
  const subscribed = await slash(
    stack,
    "subscribe weekly mon 09:00 Europe/Berlin last7d",
    DEMO.admin,
    DEMO.security,
  );
  ackMs.push(subscribed.sent.ackMs);
  out.message("Subscription created (next five runs)", subscribed.body);
  const id = /Id `([a-z0-9]+)`/.exec(JSON.stringify(subscribed.body))?.[1];
  if (!id) throw new Error("the subscription reply names no id");

  out.step(
    `6. The scheduled digest, sent now (\`/insights send ${id}\`): the worker claims and posts it, the trend a chart and the drivers a table that Slack draws (no file)`,
  );
  const posted = stack.slack.messages(DEMO.security).length;
  const send = await slash(stack, `send ${id}`, DEMO.admin, DEMO.security);
  ackMs.push(send.sent.ackMs);
  const message = await stack.slack.waitFor(() => stack.slack.messages(DEMO.security)[posted], {
    timeoutMs: 20_000,
    what: "the scheduled digest in #security",
  });
  digests += 1;
  out.message("Scheduled digest as posted in #security", { text: message.text, blocks: message.blocks });

  out.step(
    "6b. The same digest where Slack refuses chart blocks (an older client, say): the worker retries once with the image",
  );
  stack.slack.refuseBlocks(["data_visualization", "table"]);
  const refusedAt = stack.slack.messages(DEMO.security).length;
  await slash(stack, `send ${id}`, DEMO.admin, DEMO.security);
  const fallback = await stack.slack.waitFor(() => stack.slack.messages(DEMO.security)[refusedAt], {
    timeoutMs: 30_000,
    what: "the digest with its image chart",
  });
  stack.slack.refuseBlocks([]);
  digests += 1;
  out.message("Scheduled digest after the fallback (chart: png_fallback)", {
    text: fallback.text,
    blocks: fallback.blocks,
  });
  const upload = stack.slack.files().find((f) => f.completed && f.bytes);
  if (upload?.bytes) {
    const path = out.file("scheduled-digest-chart.png", upload.bytes);
    out.note(
      `Chart image uploaded for the fallback: ${path} (${upload.bytes.length.toLocaleString("en-US")} bytes)`,
    );
  }

  out.step("7. The admin opens the app's Home tab: key status and every subscription with its last delivery");
  await stack.slack.sendEvent({
    teamId: DEMO.teamId,
    event: { type: "app_home_opened", user: DEMO.admin, channel: "D0ADMIN01", tab: "home" },
  });
  const home = await stack.slack.waitFor(() => stack.slack.homeView(DEMO.admin), { what: "the Home tab" });
  out.message("App Home", home.view, "home");

  const { view } = await stack.web.deps.digests.build({
    ref: { teamId: DEMO.teamId },
    range: "last30d",
    tz: "Europe/Berlin",
    now: stack.clock(),
    previousSeries: true,
  });
  const chart = out.file("trend-last30d.png", renderChartPng(chartInputFor(view)));
  out.note(`Trend chart of the last 30 days written to ${chart}`);
  return { steps: 7, ackMs, digests };
}

/** `--keep`: a prompt where you type `/insights …` as the admin in #general and see the reply. */
export async function interactive(
  stack: Stack,
  out: Output,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
) {
  const rl = createInterface({ input, output, terminal: (input as { isTTY?: boolean }).isTTY === true });
  output.write(
    '\nEverything keeps running. Type what follows /insights (e.g. `last30d asset:"payments / api"`), or `exit`.\n',
  );
  try {
    for (;;) {
      const line = (await rl.question("/insights ")).trim();
      if (line === "exit" || line === "quit") return;
      const { body } = await slash(stack, line, DEMO.admin).catch((err: unknown) => ({
        body: { text: `(no reply: ${(err as Error).message})` },
      }));
      out.message(`/insights ${line}`, body);
    }
  } catch {
    // Ctrl-D / Ctrl-C close the prompt.
  } finally {
    rl.close();
  }
}
