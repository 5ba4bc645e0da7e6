import { resolveFilterNames } from "../src/digests/subscription-filters.ts";
import { AppError } from "../src/errors.ts";
import { requirePostableChannel } from "../src/slack/subscriptions/access.ts";
import { openSubscribeModal } from "../src/slack/subscriptions/modal-open.ts";
import type { Schedule } from "../src/subscriptions/types.ts";
import { subscribedMessage } from "../templates/subscribe-reply.ts";
import type { CommandHandler } from "./context.ts";

/**
 * `/insights subscribe [weekly|daily] [mon..sun] [HH:MM] [tz] [range] [filters]` schedules a digest
 * for this channel; without arguments it opens the subscribe modal. Admins only, channels the app
 * is in only. Filter names resolve like the on-demand digest's.
 */
export const subscribeCommand: CommandHandler<"subscribe"> = async (ctx) => {
  const { command: c, body, deps, ref } = ctx;
  if (c.interactive) {
    await openSubscribeModal({
      ctx,
      triggerId: body.trigger_id,
      channelId: /^[CG]/.test(body.channel_id) ? body.channel_id : undefined,
    });
    return;
  }
  if (!(await deps.apiKeys.status(ref)))
    throw new AppError("not_connected", "Connect the platform API key before subscribing.");
  await requirePostableChannel(ctx.client, body.channel_id);
  const user = await ctx.user();
  const tz = c.tz ?? user.tz;
  const filters = await resolveFilterNames(deps.digests, ref, tz, deps.clock(), {
    assets: c.assets,
    scanners: c.scanners,
  });
  const schedule: Schedule = c.frequency === "daily" ? { kind: "daily" } : { kind: "weekly", days: c.days };
  const { subscription: sub, nextRuns } = await deps.subscriptions.create(
    ref,
    { channelId: body.channel_id, schedule, time: c.time, tz, range: c.range, ...filters },
    body.user_id,
  );
  deps.logger.info({ subId: sub.id, channel: sub.channelId }, "subscription created");
  await ctx.respond({
    response_type: "ephemeral",
    ...subscribedMessage({ ...sub, nextRuns, verb: "subscribed" }),
  });
};
