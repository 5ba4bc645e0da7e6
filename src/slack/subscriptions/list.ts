import type { SubscriptionView } from "../../../templates/subscriptions.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { Subscription } from "../../subscriptions/types.ts";
import { subscriptionView, visibleTo } from "../home.ts";
import type { AppServices } from "../services.ts";

/** Rows per page of the subscription list (the template's default page). */
export const LIST_PAGE = 10;

/** A channel's own subscriptions first, then the rest, each group oldest first. */
export function channelFirst(subs: Subscription[], channelId: string | undefined): Subscription[] {
  if (!channelId) return subs;
  return [...subs.filter((s) => s.channelId === channelId), ...subs.filter((s) => s.channelId !== channelId)];
}

/** Who is looking at the list: their own personal digests show, with buttons; others' only to managers. */
export interface Viewer {
  userId: string;
  manager: boolean;
}

/**
 * The workspace's subscriptions as list rows, `channelId`'s first. Next runs are computed only for
 * the page starting at `offset` (a zoned cron step costs milliseconds; 200 of them would be felt).
 */
export async function subscriptionRows(
  deps: Pick<AppServices, "subscriptions">,
  ref: WorkspaceRef,
  channelId: string | undefined,
  offset: number,
  viewer: Viewer,
): Promise<SubscriptionView[]> {
  const all = visibleTo(await deps.subscriptions.list(ref), viewer.userId, viewer.manager);
  const subs = channelFirst(all, channelId);
  return subs.map((sub, i) => {
    const row = subscriptionView(
      sub,
      i >= offset && i < offset + LIST_PAGE ? deps.subscriptions.nextRuns(sub, 1)[0] : undefined,
    );
    if (sub.ownerId === viewer.userId) row.canChange = true;
    return row;
  });
}

/** The page a row index of the list is on (from a row's `sub_<index>` block id), as its first index. */
export function pageOffsetOf(blockId: string | undefined, prefix: string): number {
  const n = blockId?.startsWith(prefix) ? Number(blockId.slice(prefix.length)) : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? Math.floor(n / LIST_PAGE) * LIST_PAGE : 0;
}
