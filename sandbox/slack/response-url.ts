import { isAppError } from "../../src/errors.ts";
import { isRecord } from "./api/args.ts";
import { readMessage } from "./api/content.ts";
import { takeFault } from "./faults.ts";
import { slackFileReady } from "./file-status.ts";
import { addEphemeral, addMessage, findEphemeral, findMessage, removeMessage } from "./messages.ts";
import type { ResponseUrlRecord, StandInState } from "./state.ts";
import type { ResponseRecord } from "./types.ts";

/** Slack: a response_url works five times within thirty minutes. */
export const RESPONSE_URL_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60_000;

type Outcome = Pick<ResponseRecord, "status" | "outcome" | "error"> & { details?: Record<string, unknown> };

const reject = (status: number, error: string): Outcome => ({ status, outcome: "rejected", error });

function deleteTarget(state: StandInState, rec: ResponseUrlRecord): Outcome {
  const t = rec.target;
  if (!t) return reject(404, "message_not_found");
  if (t.ephemeral) {
    const eph = findEphemeral(state, t.channelId, t.ts);
    if (eph) eph.deleted = true;
  } else removeMessage(state, t.channelId, t.ts);
  rec.target = undefined;
  return { status: 200, outcome: "deleted", error: undefined };
}

/** Replaces the target in place; false when there is nothing left to replace. */
function replaceTarget(
  state: StandInState,
  rec: ResponseUrlRecord,
  text?: string,
  blocks?: unknown[],
): boolean {
  const t = rec.target;
  const msg =
    t && (t.ephemeral ? findEphemeral(state, t.channelId, t.ts) : findMessage(state, t.channelId, t.ts));
  if (!msg) return false;
  msg.text = text;
  msg.blocks = blocks;
  msg.editedAt = state.now();
  return true;
}

function post(
  state: StandInState,
  baseUrl: string,
  rec: ResponseUrlRecord,
  body: Record<string, unknown>,
): Outcome {
  if (body.delete_original === true) return deleteTarget(state, rec);
  const fileReady = slackFileReady(state, baseUrl, rec.teamId);
  const { text, blocks } = readMessage(body, {
    requireContent: true,
    fileReady,
    refuse: state.refusedBlocks,
  });
  if (body.replace_original === true && replaceTarget(state, rec, text, blocks))
    return { status: 200, outcome: "replaced", error: undefined };
  const shown = show(state, rec, { text, blocks }, body.response_type === "in_channel", "response_url");
  return shown ? { status: 200, outcome: shown, error: undefined } : reject(404, "channel_not_found");
}

/**
 * Shows a message where the url's person sees it: in the channel (as the bot) or to them alone. The
 * first one shown becomes what a later `replace_original` / `delete_original` acts on. Undefined when
 * the url's channel or workspace is gone.
 */
function show(
  state: StandInState,
  rec: ResponseUrlRecord,
  message: { text: string | undefined; blocks: unknown[] | undefined },
  inChannel: boolean,
  via: string,
): "in_channel" | "ephemeral" | undefined {
  const ws = state.workspaces.get(rec.teamId);
  if (!rec.channelId || !ws) return undefined;
  const base = { channelId: rec.channelId, teamId: rec.teamId, ...message, via };
  const m = inChannel
    ? addMessage(state, {
        ...base,
        user: ws.botUserId,
        botId: ws.botId,
        threadTs: undefined,
        files: undefined,
      })
    : addEphemeral(state, { ...base, userId: rec.userId });
  rec.target ??= { channelId: m.channelId, ts: m.ts, ephemeral: !inChannel };
  return inChannel ? "in_channel" : "ephemeral";
}

function decide(
  state: StandInState,
  baseUrl: string,
  rec: ResponseUrlRecord | undefined,
  body: unknown,
): Outcome {
  const fault = takeFault(state, "response_url");
  if (fault) return reject(fault.kind === "http" ? fault.status : 400, fault.error);
  if (!rec) return reject(404, "invalid_url");
  if (state.now() - rec.createdAt > RESPONSE_URL_TTL_MS) return reject(404, "expired_url");
  if (rec.uses >= RESPONSE_URL_USES) return reject(404, "used_url");
  if (!isRecord(body)) return reject(400, "invalid_payload");
  try {
    const out = post(state, baseUrl, rec, body);
    if (out.status === 200) rec.uses += 1;
    return out;
  } catch (err) {
    if (isAppError(err)) return { ...reject(400, err.code), details: { ...err.details } };
    throw err;
  }
}

/**
 * A POST to `/response/<id>`: new ephemeral or in-channel message, or `replace_original` /
 * `delete_original` on the message the url belongs to. Recorded in `responses` and as calls of
 * method `response_url`.
 */
export function receiveResponse(
  state: StandInState,
  baseUrl: string,
  responseId: string,
  body: unknown,
): { status: number; body: Record<string, unknown> } {
  const rec = state.responseUrls.get(responseId);
  const { details, ...out } = decide(state, baseUrl, rec, body);
  const recorded = isRecord(body) ? body : undefined;
  state.responses.push({ responseId, at: state.now(), body: recorded, ...out });
  state.calls.push({
    method: "response_url",
    teamId: rec?.teamId,
    args: { response_id: responseId, ...(recorded ?? {}) },
    at: state.now(),
    ok: out.status === 200,
    error: out.error,
    status: out.status,
  });
  return { status: out.status, body: out.error ? { ok: false, error: out.error, ...details } : { ok: true } };
}

/**
 * A slash command's immediate answer: an ack whose body holds a message shows it to the person
 * (ephemeral unless `response_type` is `in_channel`), like a post on the command's response_url but
 * without using one of its five posts; a later `replace_original` on that url replaces it. Recorded
 * in `responses` with outcome `ack`. An empty ack shows nothing.
 */
export function receiveCommandAck(
  state: StandInState,
  baseUrl: string,
  responseId: string,
  body: unknown,
): void {
  const rec = state.responseUrls.get(responseId);
  if (!rec || !isRecord(body) || (body.text === undefined && body.blocks === undefined)) return;
  let out: Outcome;
  try {
    const { text, blocks } = readMessage(body, {
      requireContent: true,
      fileReady: slackFileReady(state, baseUrl, rec.teamId),
    });
    out = show(state, rec, { text, blocks }, body.response_type === "in_channel", "ack")
      ? { status: 200, outcome: "ack", error: undefined }
      : reject(404, "channel_not_found");
  } catch (err) {
    if (!isAppError(err)) throw err;
    out = reject(400, err.code);
  }
  state.responses.push({ responseId, at: state.now(), body, ...out });
}
