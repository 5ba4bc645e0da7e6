import { composeQuestion } from "../../../ask/adjust.ts";
import { MAX_QUESTION_CHARS } from "../../../ask/text.ts";
import { CALLBACK, ASK_FIELD as F } from "../../../ids.ts";
import { answerInThread } from "../../ask.ts";
import { onView } from "../../frame/index.ts";
import { checkAdjust, fieldsOf, whereOf } from "./ask-adjust-check.ts";

/**
 * The Adjust modal's submission: the period and comparison are checked where it is acked
 * (ask-adjust-check.ts) and shown inline when unreadable; the new answer, digest work, follows in
 * the conversation's thread from the digest executor.
 */
export const askAdjustSubmit = onView({
  id: CALLBACK.askAdjust,
  access: "reader",
  errorBlock: F.period,
  run: checkAdjust,
  async work(ctx) {
    const where = whereOf(ctx);
    if (!where) return;
    // The form's question is read whole: each field is held to its own limit (checkAdjust).
    const question = composeQuestion(fieldsOf(ctx));
    await answerInThread(ctx, question, where, { maxChars: Math.max(question.length, MAX_QUESTION_CHARS) });
  },
});
