import { randomHex } from "../ids.ts";
import type { TriggerRecord } from "../state.ts";
import type { StoredView, Workspace } from "../types.ts";
import { slackError, str } from "./args.ts";
import { filesOf, readView } from "./content.ts";
import { type ApiContext, type ApiMethod, authed } from "./context.ts";

/** Slack's trigger_id lifetime. */
export const TRIGGER_TTL_MS = 3000;
/** Slack allows a modal stack of three views. */
const MAX_STACK = 3;

/** The view object as Slack returns it: the app's fields plus the ones Slack fills in. */
export function wireView(v: StoredView, ws: Workspace | undefined, appId: string): Record<string, unknown> {
  return {
    private_metadata: "",
    callback_id: "",
    external_id: v.externalId ?? "",
    state: { values: {} },
    clear_on_close: false,
    notify_on_close: false,
    ...v.view,
    id: v.id,
    team_id: v.teamId,
    type: v.type,
    hash: v.hash,
    root_view_id: v.rootViewId,
    previous_view_id: v.previousViewId ?? null,
    app_id: appId,
    app_installed_team_id: v.teamId,
    bot_id: ws?.botId ?? null,
  };
}

/**
 * Triggers work once, within 3 s, in the workspace they were issued for. A late, unknown or foreign
 * trigger answers `invalid_trigger_id`, which is what Slack answers a views.open made after 3 s
 * (its reference also lists `expired_trigger_id`; the app treats every refusal alike).
 */
function consumeTrigger(ctx: ApiContext, ws: Workspace): TriggerRecord {
  const t = ctx.state.triggers.get(str(ctx.args, "trigger_id") ?? "");
  if (!t || t.teamId !== ws.teamId || ctx.state.now() - t.createdAt > TRIGGER_TTL_MS)
    throw slackError("invalid_trigger_id");
  if (t.used) throw slackError("exchanged_trigger_id");
  t.used = true;
  return t;
}

function store(
  ctx: ApiContext,
  v: Omit<StoredView, "id" | "hash" | "rootViewId" | "closed"> & { rootViewId?: string },
) {
  const id = ctx.state.ids.viewId();
  const stored: StoredView = { ...v, id, hash: randomHex(8), rootViewId: v.rootViewId ?? id, closed: false };
  ctx.state.views.set(id, stored);
  return stored;
}

function reply(ctx: ApiContext, v: StoredView) {
  return { view: wireView(v, authed(ctx).ws, ctx.appId) };
}

/**
 * views.open and views.push: a modal for the trigger's user, stacked on the view `parentOf` names
 * (views.push), or the root of a new stack (views.open).
 */
function modalMethod(
  parentOf: (ctx: ApiContext, trigger: TriggerRecord) => StoredView | undefined,
): ApiMethod {
  return {
    auth: "bot",
    run(ctx) {
      const { ws } = authed(ctx);
      const trigger = consumeTrigger(ctx, ws);
      const view = readView(ctx.args, "modal", filesOf(ctx));
      const parent = parentOf(ctx, trigger);
      const v = store(ctx, {
        teamId: ws.teamId,
        userId: trigger.userId,
        type: "modal",
        externalId: typeof view.external_id === "string" ? view.external_id : undefined,
        previousViewId: parent?.id,
        ...(parent ? { rootViewId: parent.rootViewId } : {}),
        view,
      });
      return reply(ctx, v);
    },
  };
}

const open = modalMethod(() => undefined);

/** On the view the trigger came from, else the user's latest open modal; at most three deep. */
const push = modalMethod((ctx, trigger) => {
  const open = [...ctx.state.views.values()].filter(
    (v) => v.type === "modal" && !v.closed && v.userId === trigger.userId,
  );
  const parent = (trigger.viewId ? ctx.state.views.get(trigger.viewId) : undefined) ?? open.at(-1);
  if (parent && open.filter((v) => v.rootViewId === parent.rootViewId).length >= MAX_STACK)
    throw slackError("push_limit_reached");
  return parent;
});

/** `hash` guards against overwriting a newer version of the view (Slack's race protection). */
function checkHash(ctx: ApiContext, v: StoredView): void {
  const hash = str(ctx.args, "hash");
  if (hash !== undefined && hash !== v.hash) throw slackError("hash_conflict");
}

const update: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const id = str(ctx.args, "view_id");
    const ext = str(ctx.args, "external_id");
    const v = id
      ? ctx.state.views.get(id)
      : [...ctx.state.views.values()].find((x) => ext !== undefined && x.externalId === ext);
    if (!v || v.teamId !== ws.teamId) throw slackError("not_found");
    checkHash(ctx, v);
    v.view = readView(ctx.args, v.type, filesOf(ctx));
    v.hash = randomHex(8);
    return reply(ctx, v);
  },
};

const publish: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const userId = str(ctx.args, "user_id");
    if (!userId || !ws.users.has(userId)) throw slackError("user_not_found");
    const existing = ctx.state.views.get(ctx.state.homeViews.get(userId) ?? "");
    if (existing) checkHash(ctx, existing);
    const view = readView(ctx.args, "home", filesOf(ctx));
    if (existing) {
      existing.view = view;
      existing.hash = randomHex(8);
      return reply(ctx, existing);
    }
    const v = store(ctx, {
      teamId: ws.teamId,
      userId,
      type: "home",
      externalId: undefined,
      previousViewId: undefined,
      view,
    });
    ctx.state.homeViews.set(userId, v.id);
    return reply(ctx, v);
  },
};

export const viewMethods: Record<string, ApiMethod> = {
  "views.open": open,
  "views.push": push,
  "views.update": update,
  "views.publish": publish,
};
