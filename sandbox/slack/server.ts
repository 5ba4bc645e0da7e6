import type { IncomingMessage, ServerResponse } from "node:http";
import { isAppError } from "../../src/errors.ts";
import { type ApiEnv, dispatchApi } from "./api/dispatch.ts";
import { UPLOAD_PATH } from "./api/files.ts";
import { parseArgs, readBody } from "./body.ts";
import { RESPONSE_PATH } from "./client/mint.ts";
import { receiveResponse } from "./response-url.ts";
import { mintOAuthCode } from "./tokens.ts";
import { receiveUpload } from "./uploads.ts";

export const API_PATH = "/api/";
/** Files up to this size are accepted; Slack's own limit is 1 GB, tests never need that much. */
const BODY_LIMIT = 64 * 1024 * 1024;

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const type = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
  res.writeHead(status, { "Content-Type": type, ...headers });
  res.end(text);
}

function credentials(req: IncomingMessage) {
  const auth = req.headers.authorization ?? "";
  const bearer = /^Bearer\s+(\S+)/i.exec(auth)?.[1];
  const basicRaw = /^Basic\s+(\S+)/i.exec(auth)?.[1];
  const decoded = basicRaw ? Buffer.from(basicRaw, "base64").toString("utf8") : undefined;
  const sep = decoded?.indexOf(":") ?? -1;
  const basic =
    decoded && sep > 0 ? { user: decoded.slice(0, sep), pass: decoded.slice(sep + 1) } : undefined;
  return { bearer, basic };
}

/**
 * The browser half of OAuth: Slack would ask the user to approve, then redirect back with a code.
 * Here approval is implied; `team` picks the workspace (default: the first one).
 */
function authorize(env: ApiEnv, url: URL, res: ServerResponse): void {
  const redirect = url.searchParams.get("redirect_uri");
  const team = url.searchParams.get("team") ?? [...env.state.workspaces.keys()][0];
  const ws = team ? env.state.workspaces.get(team) : undefined;
  if (!redirect || !ws) {
    send(res, 400, "redirect_uri and a known team are required");
    return;
  }
  const target = new URL(redirect);
  // The bot token gets the scopes the app asked for here, as a real install grants them.
  const scopes = url.searchParams.get("scope")?.split(",").filter(Boolean);
  target.searchParams.set("code", mintOAuthCode(env.state, ws.teamId, ws.installerUserId, scopes));
  const state = url.searchParams.get("state");
  if (state !== null) target.searchParams.set("state", state);
  res.writeHead(302, { Location: target.toString() });
  res.end();
}

async function route(env: ApiEnv, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", env.baseUrl);
  const path = url.pathname;
  const contentType = req.headers["content-type"] ?? "";
  if (req.method === "GET" && path === "/oauth/v2/authorize") return authorize(env, url, res);
  if (path.startsWith(API_PATH)) {
    const raw = await readBody(req, BODY_LIMIT);
    const { args, parts } = parseArgs(contentType, raw, url.searchParams);
    const json = contentType.split(";")[0]?.trim().toLowerCase() === "application/json";
    const method = path.slice(API_PATH.length);
    const held = env.state.holds.get(method)?.shift();
    if (held) {
      held.arrive();
      await held.released;
    }
    const out = dispatchApi(env, {
      method,
      json,
      args,
      parts,
      ...credentials(req),
    });
    const late = env.state.latency.get(method);
    if (late) await new Promise((resolve) => setTimeout(resolve, late));
    return send(res, out.status, out.body, out.headers);
  }
  if (req.method === "POST" && path.startsWith(UPLOAD_PATH)) {
    const out = receiveUpload(
      env.state,
      path.slice(UPLOAD_PATH.length),
      contentType,
      await readBody(req, BODY_LIMIT),
    );
    return send(res, out.status, out.text);
  }
  if (req.method === "POST" && path.startsWith(RESPONSE_PATH)) {
    const raw = (await readBody(req, BODY_LIMIT)).toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const out = receiveResponse(env.state, env.baseUrl, path.slice(RESPONSE_PATH.length), body);
    return send(res, out.status, out.body);
  }
  send(res, 404, { ok: false, error: "not_found" });
}

/** The node:http handler of the stand-in's server side. */
export function createHandler(env: ApiEnv) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    route(env, req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.end();
      if (isAppError(err))
        return send(res, err.code === "request_too_large" ? 413 : 200, { ok: false, error: err.code });
      send(res, 500, { ok: false, error: "internal_error", detail: String(err) });
    });
  };
}
