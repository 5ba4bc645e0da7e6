import { DEMO } from "../slack/index.ts";
import type { Stack } from "../stack.ts";
import type { createDemoOutput } from "./output.ts";

type Output = ReturnType<typeof createDemoOutput>;

/** A short conversation in the app's Messages tab: two questions it answers and one it cannot. */
const QUESTIONS = [
  "Why did violations go up in payments last week?",
  "violations in October compared with September",
  "how many critical findings are open?",
];

/**
 * The member opens the app's Messages tab (suggested questions from the account's names) and asks in
 * plain words; each answer, in the question's thread, starts with what was understood.
 */
export async function playConversation(stack: Stack, out: Output, firstStep: number): Promise<number> {
  out.step(`${firstStep}. A member opens the app's Messages tab and asks in plain words`);
  const opened = await stack.slack.openMessagesTab({ teamId: DEMO.teamId, userId: DEMO.member });
  const prompts = await stack.slack.waitFor(() => stack.slack.suggestedPrompts(opened.channelId), {
    what: "the suggested prompts",
  });
  out.note(`Suggested: ${prompts.prompts.map((p) => `“${p.message}”`).join(", ")}`);
  for (const text of QUESTIONS) {
    const posted = await stack.slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.member, text });
    const reply = await stack.slack.waitFor(
      () =>
        stack.slack.messages(posted.channelId).find((m) => m.threadTs === posted.ts && m.botId !== undefined),
      { timeoutMs: 20_000, what: `the answer to “${text}”` },
    );
    out.message(`“${text}” (answered in its thread)`, { text: reply.text, blocks: reply.blocks });
  }
  return 1;
}
