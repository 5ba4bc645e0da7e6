import { isAppError } from "../../../src/errors.ts";
import { assistantMethods } from "../assistant/api.ts";
import { takeFault } from "../faults.ts";
import { functionMethods } from "../functions/api.ts";
import type { Part } from "../multipart.ts";
import { socketMethods } from "../socket/api.ts";
import type { StandInState } from "../state.ts";
import { resolveToken } from "../tokens.ts";
import { unfurlMethods } from "../unfurl/api.ts";
import { type Args, leanArgs, recordableArgs, str } from "./args.ts";
import { chatMethods } from "./chat.ts";
import { type ApiBody, type ApiContext, type ApiMethod, HttpFault, type OAuthSettings } from "./context.ts";
import { directoryMethods } from "./directory.ts";
import { fileMethods } from "./files.ts";
import { JSON_BODY_METHODS } from "./json-bodies.ts";
import { oauthMethods } from "./oauth.ts";
import { lackingScopes } from "./scopes.ts";
import { viewMethods } from "./views.ts";

/** Every Web API method the stand-in speaks, by name. */
export const API_METHODS: Readonly<Record<string, ApiMethod>> = {
  ...directoryMethods,
  ...chatMethods,
  ...viewMethods,
  ...fileMethods,
  ...oauthMethods,
  ...socketMethods,
  ...functionMethods,
  ...unfurlMethods,
  ...assistantMethods,
};

export interface ApiEnv {
  state: StandInState;
  baseUrl: string;
  appId: string;
  oauth: OAuthSettings;
}

export interface ApiRequest {
  method: string;
  /** The body was JSON (`application/json`). */
  json?: boolean;
  args: Args;
  parts: Part[];
  bearer: string | undefined;
  basic: { user: string; pass: string } | undefined;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: ApiBody;
}

function failure(err: unknown): HttpAnswer {
  if (err instanceof HttpFault) {
    const headers: Record<string, string> =
      err.retryAfter !== undefined ? { "Retry-After": String(err.retryAfter) } : {};
    return { status: err.status, headers, body: { ok: false, error: err.error } };
  }
  if (isAppError(err))
    return { status: 200, headers: {}, body: { ok: false, error: err.code, ...err.details } };
  return { status: 500, headers: {}, body: { ok: false, error: "internal_error", detail: String(err) } };
}

/** The answer Slack would give, before recording (injected faults first, then auth, then the method). */
function answer(env: ApiEnv, req: ApiRequest, ctx: ApiContext): HttpAnswer {
  const method = API_METHODS[req.method];
  if (!method) return { status: 200, headers: {}, body: { ok: false, error: "unknown_method" } };
  const fault = takeFault(env.state, req.method);
  if (fault?.kind === "http") return failure(new HttpFault(fault.status, fault.error, fault.retryAfter));
  if (fault) return { status: 200, headers: {}, body: { ok: false, error: fault.error } };
  if (req.json && !JSON_BODY_METHODS.has(req.method)) {
    const messages = [
      `[ERROR] ${req.method} does not read a JSON body; send application/x-www-form-urlencoded`,
    ];
    return {
      status: 200,
      headers: {},
      body: { ok: false, error: "invalid_arguments", response_metadata: { messages } },
    };
  }
  try {
    // A JSON body's token goes in the Authorization header: Slack does not read one from the body.
    const token = req.json ? req.bearer : (req.bearer ?? str(req.args, "token"));
    if (method.auth === "bot") ctx.auth = resolveToken(env.state, token);
    const headers: Record<string, string> = ctx.auth
      ? { "X-OAuth-Scopes": ctx.auth.ws.scopes.join(",") }
      : {};
    const lacking = ctx.auth ? lackingScopes(req.method, ctx, ctx.auth.ws) : [];
    if (ctx.auth && lacking.length > 0) {
      // Slack's shape: the scopes the call needed and the ones the token has.
      const body = {
        ok: false,
        error: "missing_scope",
        needed: lacking.join(","),
        provided: ctx.auth.ws.scopes.join(","),
      };
      return { status: 200, headers: { ...headers, "X-Accepted-OAuth-Scopes": lacking.join(",") }, body };
    }
    const body = method.run(ctx);
    return { status: 200, headers, body: { ok: true, ...body } };
  } catch (err) {
    return failure(err);
  }
}

/** Runs one Web API call against the state and records it, whatever the outcome. */
export function dispatchApi(env: ApiEnv, req: ApiRequest): HttpAnswer {
  const ctx: ApiContext = {
    state: env.state,
    args: req.args,
    parts: req.parts,
    auth: undefined,
    bearer: req.bearer,
    basic: req.basic,
    baseUrl: env.baseUrl,
    appId: env.appId,
    oauth: env.oauth,
  };
  const res = answer(env, req, ctx);
  const team = res.body.team as { id?: string } | null | undefined;
  // A dead token still tells which workspace the call was for.
  const tokenTeam = env.state.tokens.get(req.bearer ?? str(req.args, "token") ?? "")?.teamId;
  env.state.calls.push({
    method: req.method,
    teamId: ctx.auth?.ws.teamId ?? tokenTeam ?? team?.id ?? undefined,
    args: env.state.lean ? leanArgs(req.args) : recordableArgs(req.args),
    at: env.state.now(),
    ok: res.body.ok === true,
    error: typeof res.body.error === "string" ? res.body.error : undefined,
    status: res.status,
    ...(typeof res.body.needed === "string" ? { needed: res.body.needed } : {}),
  });
  return res;
}
