import { resolveFilterNames } from "../src/digests/subscription-filters.ts";
import { AppError } from "../src/errors.ts";
import { requirePostableChannel } from "../src/slack/subscriptions/access.ts";
import { openSubscribeModal } from "../src/slack/subscriptions/modal-open.ts";
import { dmOf } from "../src/slack/subscriptions/personal.ts";
import type { Schedule } from "../src/subscriptions/types.ts";
import { subscribedMessage } from "../templates/subscribe-reply.ts";
import type { CommandContext, CommandHandler } from "./context.ts";
import type { SubscribeArgs } from "./grammar.ts";

function scheduleOf(c: SubscribeArgs): Schedule {
  if (c.frequency === "weekly") return { kind: "weekly", days: c.days };
  // Monthly and quarterly without a day run on the 1st: of each month, of each quarter.
  if (c.frequency === "monthly" || c.frequency === "quarterly")
    return { kind: c.frequency, on: c.on ?? { kind: "day", day: 1 } };
  return { kind: c.frequency };
}

/**
 * Schedules a digest (or an alert) for `channelId`; both subcommands share it. Filter names resolve
 * like the on-demand digest's.
 */
async function subscribe(
  ctx: CommandContext<"subscribe" | "subscribeMe">,
  c: SubscribeArgs,
  channelId: string,
): Promise<void> {
  const { body, deps, ref } = ctx;
  const user = await ctx.user();
  const tz = c.tz ?? user.tz;
  const filters = await resolveFilterNames(deps.digests, ref, tz, deps.clock(), {
    assets: c.assets,
    scanners: c.scanners,
  });
  const { subscription: sub, nextRuns } = await deps.subscriptions.create(
    ref,
    {
      channelId,
      schedule: scheduleOf(c),
      time: c.time,
      tz,
      range: c.range,
      ...filters,
      condition: c.condition,
      mode: c.mode,
      style: c.style,
      ...(c.drivers === false ? { drivers: false } : {}),
      ...(c.chart ? { chart: c.chart } : {}),
    },
    body.user_id,
  );
  deps.logger.info({ subId: sub.id, channel: sub.channelId, mode: sub.mode }, "subscription created");
  await ctx.respond({
    response_type: "ephemeral",
    ...subscribedMessage({ ...sub, nextRuns, verb: "subscribed" }),
  });
}

async function requireKey(ctx: Pick<CommandContext, "deps" | "ref">): Promise<void> {
  if (!(await ctx.deps.apiKeys.status(ctx.ref)))
    throw new AppError("not_connected", "Connect the platform API key before subscribing.");
}

/**
 * `/insights subscribe [hourly|daily|weekdays|weekly [mon..sun]|monthly [day]|quarterly [day]] [HH:MM] [tz]
 * [range] [filters] [post|update|thread] [when …]` (and `alert … when …`) schedules this channel; without arguments it opens the subscribe
 * modal. Admins only, channels the app is in only.
 */
export const subscribeCommand: CommandHandler<"subscribe"> = async (ctx) => {
  const { command: c, body } = ctx;
  if (c.interactive) {
    await openSubscribeModal({
      ctx,
      triggerId: body.trigger_id,
      channelId: /^[CG]/.test(body.channel_id) ? body.channel_id : undefined,
    });
    return;
  }
  await requireKey(ctx);
  await requirePostableChannel(ctx.client, body.channel_id);
  await subscribe(ctx, c, body.channel_id);
};

/**
 * `/insights subscribe me …` / `alert me …`: the same, delivered by DM to whoever typed it. Any
 * member who may read digests (DIGEST_ACCESS) may send them to themselves; alone, it opens the
 * modal in its personal form.
 */
export const subscribeMeCommand: CommandHandler<"subscribeMe"> = async (ctx) => {
  const { command: c, body } = ctx;
  if (c.interactive) {
    await openSubscribeModal({ ctx, triggerId: body.trigger_id, personal: true });
    return;
  }
  await requireKey(ctx);
  await subscribe(ctx, c, await dmOf(ctx.deps, ctx.client, ctx.ref, body.user_id));
};
