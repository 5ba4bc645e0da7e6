import { periodOf } from "../../src/subscriptions/period.ts";
import { SECOND_API_KEY } from "../analytics/index.ts";
import { DEMO, DEMO_API_KEY, type Stack } from "../stack.ts";
import { runPeriod } from "../stack-actions.ts";
import type { createDemoOutput } from "./output.ts";
import { slash } from "./run.ts";

type Output = ReturnType<typeof createDemoOutput>;
const REF = { teamId: DEMO.teamId };
const HOUR = 3_600_000;

/** Connects `apiKey` as the connect modal does: stored, cached replies dropped (the numbers change). */
export async function connectKey(stack: Stack, apiKey: string) {
  await stack.web.deps.apiKeys.save(REF, apiKey, {
    savedBy: DEMO.admin,
    savedAt: stack.clock().toISOString(),
  });
  await stack.web.deps.insightsCache.invalidate(REF);
}

export const idOf = (body: unknown) => /Id `([a-z0-9]+)`/.exec(JSON.stringify(body))?.[1] ?? "";
const lastPosted = (stack: Stack, channel: string) => {
  const m = stack.slack.messages(channel).at(-1);
  return { text: m?.text, blocks: m?.blocks };
};

/**
 * Less noise and numbers to keep: a run skipped by its condition, an alert that fires and clears,
 * a personal digest by DM and the CSV export, each as the Slack user sees it.
 */
export async function playRuns(stack: Stack, out: Output, firstStep: number): Promise<number> {
  let step = firstStep;
  const hour = Math.floor(stack.clock().getTime() / HOUR) * HOUR;

  out.step(
    `${step++}. A digest that posts only when it says something: \`/insights subscribe daily 08:00 when violations > 1000000\``,
  );
  const quiet = await slash(
    stack,
    "subscribe daily 08:00 when violations > 1000000",
    DEMO.admin,
    DEMO.security,
  );
  const quietId = idOf(quiet.body);
  const skipped = await runPeriod(stack, quietId, DEMO.security, periodOf(hour - HOUR));
  out.note(
    `Its run of the last hour posted nothing; the record says why: "skipped: ${skipped.lastDelivery?.reason}".`,
  );
  const list = await slash(stack, "subscriptions", DEMO.admin, DEMO.security);
  out.message("`/insights subscriptions` with the skipped run", list.body);

  // Its own scheduler fires half an hour away, so only the demo's checks run while it plays (BullMQ
  // fires on the system's clock, so the minute is the system's too).
  const minute = String((new Date().getUTCMinutes() + 30) % 60).padStart(2, "0");
  const typed = `alert hourly 00:${minute} UTC when violations > 500`;
  out.step(
    `${step++}. An alert checked hourly: \`/insights ${typed}\` (the demo swaps the connected account to move the numbers)`,
  );
  const alert = await slash(stack, typed, DEMO.admin, DEMO.security);
  const alertId = idOf(alert.body);
  const checks: [string, number][] = [
    [SECOND_API_KEY, 4],
    [SECOND_API_KEY, 3],
    [DEMO_API_KEY, 2],
    [DEMO_API_KEY, 1],
    [SECOND_API_KEY, 0],
  ];
  for (const [key, ago] of checks) {
    await connectKey(stack, key);
    const before = stack.slack.messages(DEMO.security).length;
    const after = await runPeriod(stack, alertId, DEMO.security, periodOf(hour - ago * HOUR));
    const last = after.lastDelivery;
    if (stack.slack.messages(DEMO.security).length > before) {
      const state = after.runs?.alert?.state;
      out.message(
        state === "firing"
          ? "Alert fired in #security"
          : "Alert cleared: its message is edited in place, and this reply goes in its thread",
        lastPosted(stack, DEMO.security),
      );
    } else out.note(`Check ${periodOf(hour - ago * HOUR)}: nothing posted (skipped: ${last?.reason}).`);
  }
  await connectKey(stack, DEMO_API_KEY);

  out.step(
    `${step++}. A member asks for a digest of their own: \`/insights subscribe me daily 08:00\`, sent now`,
  );
  const mine = await slash(stack, "subscribe me daily 08:00", DEMO.member);
  out.message("Personal digest created (ephemeral)", mine.body);
  const dm = `D${DEMO.member.slice(1)}`;
  await slash(stack, `send ${idOf(mine.body)}`, DEMO.member);
  await stack.slack.waitFor(() => stack.slack.messages(dm).at(-1), {
    timeoutMs: 20_000,
    what: "the DM digest",
  });
  out.message(`Personal digest in the member's DM (${dm}), nowhere else`, lastPosted(stack, dm));

  out.step(`${step++}. The numbers as a file: \`/insights export last7d\` in #general`);
  const exported = await slash(stack, "export last7d", DEMO.member);
  out.message("Export confirmation (ephemeral)", exported.body);
  const file = stack.slack
    .files()
    .filter((f) => f.completed && f.filename.endsWith(".csv"))
    .at(-1);
  if (file?.bytes) {
    const path = out.file(file.filename, file.bytes);
    const lines = file.bytes.toString("utf8").split("\r\n");
    out.note(
      `CSV uploaded to #general with files.getUploadURLExternal + files.completeUploadExternal, saved as ${path}:`,
    );
    for (const line of lines.slice(0, 10)) out.note(`  ${line}`);
    const carrier = stack.slack.messages(DEMO.general).find((m) => m.files?.includes(file.id));
    if (carrier) out.message("The message the file arrived with (what it holds)", { text: carrier.text });
  }
  return step - firstStep;
}
