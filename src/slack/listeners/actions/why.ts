import type { ButtonAction } from "@slack/bolt";
import { decodeState } from "../../../../templates/state.ts";
import {
  explainDigest,
  explainInThread,
  narrowDigest,
  type StateDigestRequest,
} from "../../../digests/explain.ts";
import { ACTION, GROUP_ACTION_PREFIX } from "../../../ids.ts";
import { type ActionContext, onAction } from "../../frame/index.ts";

async function stateRequest(ctx: ActionContext): Promise<StateDigestRequest> {
  return {
    ref: ctx.ref,
    state: decodeState((ctx.action as ButtonAction).value),
    tz: (await ctx.user()).tz,
    now: ctx.deps.clock(),
  };
}

/**
 * Why? on a digest: the same ephemeral digest, redrawn in place with its drivers; on a digest that
 * everyone sees, the drivers alone in its thread, so nobody's view of the message changes.
 */
export const whyButton = onAction({
  id: ACTION.explain,
  access: "reader",
  async run(ctx) {
    const req = await stateRequest(ctx);
    const { body } = ctx;
    if (body.container?.is_ephemeral === true || !body.channel?.id || !body.message?.ts) {
      await ctx.reply.message(await explainDigest(ctx.deps.digests, req), { replace: true });
      return;
    }
    await ctx.client.chat.postMessage({
      channel: body.channel.id,
      thread_ts: body.message.thread_ts ?? body.message.ts,
      ...(await explainInThread(ctx.deps.digests, req)),
    });
  },
});

/** An asset group in the drivers: the digest narrowed to that group (or widened back), in place when private. */
export const groupButton = onAction({
  id: new RegExp(`^${GROUP_ACTION_PREFIX}`),
  access: "reader",
  run: async (ctx) =>
    ctx.reply.message(await narrowDigest(ctx.deps.digests, await stateRequest(ctx)), { replace: true }),
});
