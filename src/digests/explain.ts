import { digestMessage } from "../../templates/digest-message.ts";
import { driversReply } from "../../templates/drivers-reply.ts";
import type { DigestState } from "../../templates/state.ts";
import type { Message } from "../blockkit/types.ts";
import type { DigestView } from "../insights/types.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { DigestRequest, DigestService } from "./digest-service.ts";

/**
 * What the digest's Why? button and its asset-group buttons do, so a listener only decodes the
 * button's value and sends the message back: every decision about the answer lives here.
 */

/** A click on a digest: its decoded state and the clicker's zone. */
export interface StateDigestRequest {
  ref: WorkspaceRef;
  state: DigestState;
  /** The clicking user's timezone: the range resolves in it, as for the slash command. */
  tz: string;
  now: Date;
}

/** The request fields a digest state stands for (asset groups included). */
export function requestForState(
  state: DigestState,
): Pick<DigestRequest, "range" | "assetIds" | "scannerIds" | "assetGroups"> {
  return {
    range: state.range,
    assetIds: state.assetIds,
    scannerIds: state.scannerIds,
    ...(state.assetGroups && state.assetGroups.length > 0 ? { assetGroups: state.assetGroups } : {}),
  };
}

/** Builds the digest a click's state stands for, in the clicker's zone, and renders its answer. */
async function answer(
  digests: Pick<DigestService, "build">,
  req: StateDigestRequest,
  options: Pick<DigestRequest, "drivers" | "shareable">,
  render: (view: DigestView) => Message,
): Promise<Message> {
  const { view } = await digests.build({
    ref: req.ref,
    tz: req.tz,
    now: req.now,
    ...requestForState(req.state),
    ...options,
  });
  return render(view);
}

/**
 * Why? answered in place: the same ephemeral digest, now with its drivers and the data-gap notices
 * of every scanner and asset group (and still its Share button). Fails like a digest fails (typed
 * errors with a code) when the breakdown cannot be had.
 *
 * @example respond({ ...(await explainDigest(deps.digests, { ref, state, tz, now })), replace_original: true })
 */
export function explainDigest(
  digests: Pick<DigestService, "build">,
  req: StateDigestRequest,
): Promise<Message> {
  return answer(digests, req, { drivers: "required", shareable: true }, digestMessage);
}

/**
 * Why? on a digest that stays as everyone saw it (in a channel): the drivers alone, to post in its
 * thread.
 */
export function explainInThread(
  digests: Pick<DigestService, "build">,
  req: StateDigestRequest,
): Promise<Message> {
  return answer(digests, req, { drivers: "required" }, driversReply);
}

/**
 * An asset-group button: the digest narrowed to the group its state names (or widened back), with
 * its drivers, since the reader is following them. The breakdown is optional here: without it the
 * narrowed digest still answers the click.
 */
export function narrowDigest(
  digests: Pick<DigestService, "build">,
  req: StateDigestRequest,
): Promise<Message> {
  return answer(digests, req, { drivers: "optional", shareable: true }, digestMessage);
}
