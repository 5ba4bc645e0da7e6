import type { WebClient } from "@slack/web-api";
import { appHome, HOME_MAX_ROWS, type HomeModel, type HomeSubscription } from "../../templates/app-home.ts";
import { scheduleWords } from "../../templates/subscribe-times.ts";
import type { SubscriptionView } from "../../templates/subscriptions.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { describeReason } from "../subscriptions/reasons.ts";
import type { Subscription } from "../subscriptions/types.ts";
import { canManage, canRead } from "./permissions.ts";
import type { AppServices } from "./services.ts";
import { canChangeSubscription } from "./subscriptions/access.ts";
import { isPersonal } from "./subscriptions/personal.ts";

/** What building the Home tab and the subscription list read. */
export type HomeDeps = Pick<
  AppServices,
  "apiKeys" | "subscriptions" | "users" | "policy" | "installerOf" | "logger"
> &
  Partial<Pick<AppServices, "reach">>;

/** The platform's host, for the Home tab's line on link previews. */
function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A subscription as the list and the Home tab show it. `nextRun` is computed by the caller only for
 * rows that are shown (a zoned cron step costs milliseconds). Pause and failure codes become words.
 */
export function subscriptionView(sub: Subscription, nextRun?: Date): SubscriptionView {
  const view: SubscriptionView = {
    id: sub.id,
    channelId: sub.channelId,
    ownerId: sub.ownerId,
    schedule: scheduleWords(sub.schedule, sub.time),
    tz: sub.tz,
    range: sub.range,
    filterNames: sub.filterLabels,
    paused: sub.status === "paused",
  };
  if (sub.drivers === false) view.drivers = false;
  if (sub.chart) view.chart = sub.chart;
  if (sub.condition) view.condition = sub.condition;
  if (sub.style) view.style = sub.style;
  if (sub.mode === "alert") {
    const alert = sub.runs?.alert;
    view.alert = alert && !alert.untold ? alert.state : "unchecked";
    if (alert?.acknowledged || alert?.snoozed)
      view.episode = {
        ...(alert.acknowledged ? { acknowledgedBy: alert.acknowledged.by } : {}),
        ...(alert.snoozed ? { snoozedUntil: alert.snoozed.until ?? "clear" } : {}),
      };
    if (sub.runs?.feedback) view.feedback = sub.runs.feedback;
  }
  if (sub.status === "paused") {
    const r = describeReason(sub.pausedReason ?? "paused_by_user");
    view.pausedReason = `${capital(r.what)}. ${r.fix}`;
  }
  if (nextRun) view.nextRunAt = nextRun.toISOString();
  const last = sub.lastDelivery;
  if (last) {
    view.lastDelivery = { at: last.at, outcome: last.outcome, ...(last.chart ? { chart: last.chart } : {}) };
    // A skipped run's reason is already in words ("violations +3% (< 10%)"); failures carry codes.
    if (last.reason)
      view.lastDelivery.reason = last.outcome === "skipped" ? last.reason : describeReason(last.reason).what;
  }
  return view;
}

/**
 * The subscriptions a person is shown: every channel's, their own personal digests, and everyone's
 * for those who manage the workspace. Another member's personal digest is theirs alone.
 */
export function visibleTo(subs: Subscription[], userId: string, manager: boolean): Subscription[] {
  return manager ? subs : subs.filter((s) => !isPersonal(s) || s.ownerId === userId);
}

/** Paused first (they need someone), then oldest first, as the store lists them. */
function homeOrder(subs: Subscription[]): Subscription[] {
  return [...subs.filter((s) => s.status === "paused"), ...subs.filter((s) => s.status !== "paused")];
}

/** The Home tab's model for one user: key status, permissions, and the subscriptions it shows. */
export async function loadHome(
  deps: HomeDeps,
  client: WebClient,
  ref: WorkspaceRef,
  userId: string,
  notice?: string,
): Promise<HomeModel> {
  const [user, installer, status, subs] = await Promise.all([
    deps.users.get(ref, client, userId),
    deps.installerOf(ref),
    deps.apiKeys.status(ref),
    deps.subscriptions.list(ref),
  ]);
  const manager = canManage(user, deps.policy, installer);
  const shown = visibleTo(subs, userId, manager);
  const rows: HomeSubscription[] = homeOrder(shown).map((sub, i) => {
    // Only shown rows need their next run.
    const next = i < HOME_MAX_ROWS ? deps.subscriptions.nextRuns(sub, 1)[0] : undefined;
    const view = subscriptionView(sub, next);
    const row: HomeSubscription = {
      ...view,
      canChange: canChangeSubscription(user, sub, deps.policy, installer),
    };
    if (sub.status === "paused") {
      const r = describeReason(sub.pausedReason ?? "paused_by_user");
      row.pausedReason = r.what;
      row.pausedFix = r.fix;
    }
    return row;
  });
  const key: HomeModel["key"] = !status
    ? { connected: false }
    : status.connected
      ? { connected: true, savedBy: status.savedBy, savedAt: status.savedAt }
      : { connected: false, unreadable: true };
  const reach = deps.reach
    ? { socketMode: deps.reach.socketMode, unfurlHost: hostOf(deps.reach.platformUrl) }
    : undefined;
  const personal = subs.filter((s) => isPersonal(s) && s.ownerId === userId).length;
  return {
    key,
    canManage: manager,
    canRead: canRead(user, deps.policy, installer),
    personal,
    subscriptions: rows,
    notice,
    reach,
  };
}

/** Publishes (or re-publishes) a user's Home tab; failures are logged, never thrown at the caller's user. */
export async function publishHome(
  deps: HomeDeps,
  client: WebClient,
  ref: WorkspaceRef,
  userId: string,
  notice?: string,
): Promise<boolean> {
  try {
    const model = await loadHome(deps, client, ref, userId, notice);
    await client.views.publish({ user_id: userId, view: appHome(model) });
    return true;
  } catch (err) {
    deps.logger.warn({ err, userId }, "could not publish the App Home");
    return false;
  }
}
