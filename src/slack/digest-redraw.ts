import { digestMessage } from "../../templates/digest-message.ts";
import type { DigestState } from "../../templates/state.ts";
import type { Message } from "../blockkit/types.ts";
import type { DigestRequest } from "../digests/digest-service.ts";
import { requestForState } from "../digests/explain.ts";
import type { DigestView } from "../insights/types.ts";
import type { ActionContext, RequestContext } from "./frame/index.ts";

/** The digest view a message's state describes, in the requesting person's timezone. */
export async function digestViewForState(
  ctx: Pick<RequestContext, "deps" | "ref" | "user">,
  state: DigestState,
  extra: Pick<DigestRequest, "shareable" | "attribution" | "chart">,
): Promise<DigestView> {
  const user = await ctx.user();
  const { view } = await ctx.deps.digests.build({
    ref: ctx.ref,
    tz: user.tz,
    now: ctx.deps.clock(),
    // A digest narrowed to an asset group stays narrowed when its range changes or it is shared.
    ...requestForState(state),
    ...extra,
  });
  return view;
}

/** The digest message a message's state describes. */
export async function digestForState(
  ctx: Pick<RequestContext, "deps" | "ref" | "user">,
  state: DigestState,
  extra: Pick<DigestRequest, "shareable" | "attribution">,
): Promise<Message> {
  return digestMessage(await digestViewForState(ctx, state, extra));
}

/**
 * Re-renders a digest for a new state (filter or range) in answer to a click. An ephemeral digest
 * is replaced in place; a digest in the channel stays as everyone saw it and the clicker gets the
 * narrowed view privately, so one person's filter never rewrites a shared message. From a surface
 * without a message to redraw (the Home tab, a modal) the digest arrives in the app's Messages tab.
 */
export async function redrawDigest(ctx: ActionContext, state: DigestState): Promise<void> {
  const message = await digestForState(ctx, state, { shareable: true });
  await ctx.reply.message(message, { replace: true });
}
