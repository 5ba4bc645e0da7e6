import { periodOf } from "../../src/subscriptions/period.ts";
import { SCENARIO_KEYS } from "../analytics/index.ts";
import { ACTION } from "../product.ts";
import { chooseOption, clickButton, pressFeedback } from "../slack/index.ts";
import { DEMO, DEMO_API_KEY, type Stack } from "../stack.ts";
import { actOnMessage, runPeriod } from "../stack-actions.ts";
import type { createDemoOutput } from "./output.ts";
import { slash } from "./run.ts";
import { connectKey, idOf } from "./runs.ts";

type Output = ReturnType<typeof createDemoOutput>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const REF = { teamId: DEMO.teamId };

/**
 * An unusual day on an account with a weekly rhythm: the alert fires with what moved it, the owner
 * acknowledges and snoozes it from the message (a member is refused), someone says it was useful,
 * and the next day's check clears it. One message tells the whole episode; each change is also a
 * reply in its thread.
 */
export async function playUnusual(stack: Stack, out: Output, firstStep: number): Promise<number> {
  let step = firstStep;
  const channel = DEMO.security;
  const top = () =>
    stack.slack
      .messages(channel)
      .filter((m) => m.threadTs === undefined)
      .at(-1);
  const shown = (ts: string) => {
    const m = stack.slack.messages(channel).find((x) => x.ts === ts);
    return { text: m?.text, blocks: m?.blocks };
  };
  const replies = (ts: string) => stack.slack.messages(channel).filter((m) => m.threadTs === ts);
  const press = (userId: string, action: (blocks: unknown) => unknown) => {
    const m = top();
    if (!m) throw new Error("no alert message");
    return actOnMessage(stack, userId, channel, m.ts, action);
  };
  const nextReply = (ts: string, count: number, what: string) =>
    stack.slack.waitFor(() => replies(ts)[count], { timeoutMs: 20_000, what });

  await connectKey(stack, SCENARIO_KEYS.unusualDay);
  const typed = "alert UTC when violations unusual";
  out.step(
    `${step++}. Unusual against a weekly rhythm: \`/insights ${typed}\` (emulator key \`${SCENARIO_KEYS.unusualDay}\`: busy Mondays, quiet weekends, and yesterday payments had 10× its findings)`,
  );
  const created = await slash(stack, typed, DEMO.admin, channel);
  const id = idOf(created.body);
  const hour = Math.floor(stack.clock().getTime() / HOUR) * HOUR;
  const fired = await runPeriod(stack, id, channel, periodOf(hour));
  const ts = fired.runs?.alert?.episode?.ts ?? "";
  const ep = fired.runs?.alert?.episode?.id ?? "";
  out.message(
    "The alert fires: yesterday against the same weekday of 8 weeks, with what moved it",
    shown(ts),
  );

  out.step(`${step++}. Max (a member) presses Acknowledge: refused; Ada (the alert's owner) presses it`);
  const refused = await press(DEMO.member, (b) => clickButton(b, ACTION.alertAcknowledge));
  const refusal = await stack.slack.waitFor(() => stack.slack.responses(refused.responseUrl ?? "")[0], {
    what: "the refusal",
  });
  out.message("Max is told, privately", refusal.body as { text?: string; blocks?: unknown[] });
  await press(DEMO.admin, (b) => clickButton(b, ACTION.alertAcknowledge));
  const acked = await nextReply(ts, 0, "the acknowledgement");
  out.message("The message, edited in place", shown(ts));
  out.message("…and the change in its thread", { text: acked.text, blocks: acked.blocks });

  out.step(`${step++}. Ada snoozes it until it clears; Max says the alert was useful`);
  await press(DEMO.admin, (b) => chooseOption(b, ACTION.alertSnooze, `${id}|${ep}|c`));
  const snoozed = await nextReply(ts, 1, "the snooze");
  out.message("Snoozed: the message", shown(ts));
  out.message("…and its thread", { text: snoozed.text, blocks: snoozed.blocks });
  const useful = await press(DEMO.member, (b) => pressFeedback(b, ACTION.alertFeedback, "positive"));
  const thanks = await stack.slack.waitFor(() => stack.slack.responses(useful.responseUrl ?? "")[0], {
    what: "the thanks",
  });
  out.message("Max's feedback, answered privately", thanks.body as { text?: string; blocks?: unknown[] });

  out.step(`${step++}. A day later, today is judged and usual again: the next check clears the episode`);
  const cleared = await runPeriod(stack, id, channel, periodOf(hour + DAY));
  const reply = await nextReply(ts, 2, "the all-clear");
  out.message("Cleared: the same message, edited", shown(ts));
  out.message("…and its thread", { text: reply.text, blocks: reply.blocks });
  out.note(
    `Record: state ${cleared.runs?.alert?.state}; feedback ${JSON.stringify(cleared.runs?.feedback)}.`,
  );
  await stack.web.deps.subscriptions.remove(REF, id);
  await connectKey(stack, DEMO_API_KEY);
  return step - firstStep;
}
