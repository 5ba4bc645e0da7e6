import { AppError } from "../../../src/errors.ts";
import type { Part } from "../multipart.ts";
import type { StandInState, TokenRecord } from "../state.ts";
import type { Workspace } from "../types.ts";
import type { Args } from "./args.ts";

/** Settings of the stand-in's OAuth side; unset credentials are not checked. */
export interface OAuthSettings {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Lifetime of rotating access tokens (`expires_in`), seconds. */
  tokenTtlSec: number;
  /** How long a rotated-out access token keeps working after a refresh, ms. */
  rotationGraceMs: number;
}

export interface ApiContext {
  state: StandInState;
  args: Args;
  /** File parts of a multipart body. */
  parts: Part[];
  /** The bearer token's workspace; set for every method that requires a token. */
  auth: { ws: Workspace; token: TokenRecord } | undefined;
  /** The `Authorization: Bearer` token as sent, for methods that take other tokens than bot ones. */
  bearer: string | undefined;
  /** Basic-auth credentials, which oauth.v2.access accepts instead of body fields. */
  basic: { user: string; pass: string } | undefined;
  baseUrl: string;
  appId: string;
  oauth: OAuthSettings;
}

export type ApiBody = Record<string, unknown>;

export interface ApiMethod {
  /** `bot`: needs a valid token (not_authed / invalid_auth otherwise); `none`: credentials in args. */
  auth: "bot" | "none";
  run(ctx: ApiContext): ApiBody;
}

/** An answer that is not HTTP 200 (429 rate limits, injected 5xx). */
export class HttpFault extends AppError<"http_fault"> {
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly error: string;
  constructor(status: number, error: string, retryAfter?: number) {
    super("http_fault", `HTTP ${status} ${error}`);
    this.status = status;
    this.error = error;
    this.retryAfter = retryAfter;
  }
}

/** The workspace of an authenticated call; methods marked `auth: "bot"` can rely on it. */
export function authed(ctx: ApiContext): { ws: Workspace; token: TokenRecord } {
  if (!ctx.auth) throw new AppError("not_authed", "Slack API error: not_authed");
  return ctx.auth;
}
