import {
  type SubscribeForm,
  type SubscribeModalView,
  subscribeModal,
} from "../../../templates/subscribe-modal.ts";
import { type FilterLists, loadFilterLists } from "../../digests/subscription-filters.ts";
import { AppError } from "../../errors.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { Subscription } from "../../subscriptions/types.ts";
import { DEFAULT_LIMITS } from "../../subscriptions/validate.ts";
import type { RequestContext } from "../frame/index.ts";
import type { AppServices } from "../services.ts";
import { checkChannel } from "./access.ts";
import { defaultForm, encodeMeta, formOf, type ModalMeta, previewOf, signature } from "./modal-state.ts";
import { dmOf } from "./personal.ts";

/** How long opening waits for the filter lists before showing the modal without them (trigger_id lives 3 s). */
const LISTS_BUDGET_MS = 1_200;

export const NO_LISTS: FilterLists = { assets: null, scanners: null };

/** The filter lists within `ms`, or none (the service is slow, down, or has no filters). */
export async function listsWithin(
  deps: Pick<AppServices, "digests" | "clock" | "logger">,
  ref: WorkspaceRef,
  tz: string,
  ms: number,
): Promise<FilterLists | null> {
  const load = loadFilterLists(deps.digests, ref, tz, deps.clock());
  load.catch((err: unknown) => deps.logger.info({ err }, "filter lists unavailable for the subscribe modal"));
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref());
  return Promise.race([load.catch(() => NO_LISTS), timeout]);
}

/** The modal for `form`, with its preview computed now and `meta` remembering what the preview shows. */
export function buildSubscribeView(
  deps: Pick<AppServices, "clock">,
  form: SubscribeForm,
  meta: ModalMeta,
  lists: FilterLists,
  notice?: string,
): SubscribeModalView {
  const m: ModalMeta = { ...meta, shown: signature(form), assets: undefined, scanners: undefined };
  if (form.frequency === "weekly") m.days = form.days;
  if (form.frequency === "monthly" || form.frequency === "quarterly") m.on = form.on;
  if (form.frequency === "cron") m.cron = form.cron;
  // No menu to hold them: the chosen filters ride along, so a save does not drop them.
  if (!lists.assets?.length && form.assetIds.length > 0) m.assets = form.assetIds;
  if (!lists.scanners?.length && form.scannerIds.length > 0) m.scanners = form.scannerIds;
  return subscribeModal({
    form,
    assets: lists.assets,
    scanners: lists.scanners,
    preview: previewOf(form, deps.clock()),
    editing: Boolean(meta.edit),
    notice,
    maxFilters: DEFAULT_LIMITS.maxFilters,
    privateMetadata: encodeMeta(m),
  });
}

/** Where the modal was opened from and for what. */
export interface OpenModalOptions {
  ctx: Pick<RequestContext, "deps" | "client" | "ref" | "user">;
  triggerId: string;
  /** Pre-selected channel (where `/insights subscribe` was typed). */
  channelId?: string;
  /** The subscription to edit. */
  edit?: Subscription;
  fromHome?: boolean;
  /** A personal digest for the person who opens it (DM, no channel input). */
  personal?: boolean;
  /** A new subscription's fields filled in already (a proposal from a question), over the defaults. */
  initial?: Partial<SubscribeForm>;
}

/**
 * Opens the subscribe modal (new or edit). The trigger expires in 3 s, so when the filter lists are
 * not at hand quickly the modal opens without them and is updated once they arrive.
 */
export async function openSubscribeModal(o: OpenModalOptions): Promise<void> {
  const { deps, client, ref } = o.ctx;
  if (!(await deps.apiKeys.status(ref)))
    throw new AppError(
      "not_connected",
      "Connect the platform API key first: an admin can run /insights connect.",
    );
  const user = await o.ctx.user();
  const form = o.edit ? formOf(o.edit) : { ...defaultForm(user.tz, o.channelId, o.personal), ...o.initial };
  const meta: ModalMeta = {
    origin: o.channelId,
    edit: o.edit?.id,
    home: o.fromHome || undefined,
    personal: form.personal || undefined,
  };
  // The lists do not depend on the zone; the creator's is always a valid one.
  const lists = await listsWithin(deps, ref, user.tz, LISTS_BUDGET_MS);
  const opened = await client.views.open({
    trigger_id: o.triggerId,
    view: buildSubscribeView(deps, form, meta, lists ?? NO_LISTS),
  });
  // While the person fills it in: what its submission will need to know without asking Slack.
  const ahead = form.personal
    ? dmOf(deps, client, ref, (await o.ctx.user()).id)
    : form.channelId
      ? checkChannel(deps, client, ref, form.channelId)
      : Promise.resolve();
  await ahead.catch((err: unknown) =>
    deps.logger.info({ err }, "subscribe modal: channel or DM not checked ahead"),
  );
  if (lists) return;
  const late = await loadFilterLists(deps.digests, ref, user.tz, deps.clock()).catch(() => null);
  const view = opened.view as { id?: string; hash?: string } | undefined;
  if (!late || !view?.id) return;
  // The hash makes Slack refuse this update if the person changed something meanwhile (that redraw wins).
  await client.views
    .update({ view_id: view.id, hash: view.hash, view: buildSubscribeView(deps, form, meta, late) })
    .catch((err: unknown) => deps.logger.info({ err }, "subscribe modal not updated with the filter lists"));
}
