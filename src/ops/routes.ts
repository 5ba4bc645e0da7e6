import type { IncomingMessage, ServerResponse } from "node:http";
import type { CustomRoute } from "@slack/bolt";
import type { Logger } from "../log.ts";
import { workspaceLabel } from "../store/keys.ts";
import {
  createOpsAuth,
  type OpsSession,
  operatorName,
  readCookie,
  SESSION_COOKIE,
  sessionCookie,
} from "./auth.ts";
import { html } from "./html.ts";
import { layout, loginPage, messagePage, overviewPage, workspacePage } from "./pages.ts";
import { type RetryDeps, retryDelivery } from "./retry.ts";
import { type OpsSources, readSummary, readWorkspace, workspaceRefOf } from "./status.ts";

/** Options of opsRoutes. */
export interface OpsRoutesOptions {
  /** OPS_TOKEN; the routes exist only when it is set. */
  token: string;
  sources: OpsSources;
  retry: RetryDeps;
  logger: Logger;
  /** Session expiry's clock [Date.now]. */
  now?: () => number;
}

/** Who made a request: a browser session (its forms carry a CSRF token) or a script's bearer token. */
type Caller =
  | { kind: "session"; operator: string; session: OpsSession }
  | { kind: "bearer"; operator: string };

/** Form bodies are a few short fields; anything longer is refused. */
const MAX_BODY = 16 * 1024;

const HEADERS = {
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, { ...HEADERS, "content-type": type, ...extra });
  res.end(body);
}
const page = (res: ServerResponse, status: number, body: string, extra?: Record<string, string>) =>
  send(res, status, "text/html; charset=utf-8", body, extra);
const json = (res: ServerResponse, status: number, body: unknown, extra?: Record<string, string>) =>
  send(res, status, "application/json", JSON.stringify(body), extra);
const redirect = (res: ServerResponse, to: string, extra: Record<string, string> = {}) => {
  res.writeHead(303, { ...HEADERS, location: to, ...extra });
  res.end();
};

/** Whether the browser reached us over https (directly, or through a proxy that says so). */
function overHttps(req: IncomingMessage): boolean {
  const proto = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    ?.trim()
    .toLowerCase();
  return proto === "https" || Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/**
 * The /ops routes for the web process's HTTP server (Bolt's custom routes): the overview, one
 * workspace, the retry action, the login form and `/ops/status.json` for scripts. Every route but
 * the login form needs the bearer token or a session; an unauthenticated browser is sent to the
 * form, a script gets 401. Read-only but for the audited retry, which a session may post only with
 * its CSRF token.
 */
export function opsRoutes(o: OpsRoutesOptions): CustomRoute[] {
  const auth = createOpsAuth(o.token, o.now);
  const { logger } = o;

  function callerOf(req: IncomingMessage): Caller | null {
    if (req.headers.authorization !== undefined) {
      if (!auth.bearer(req.headers.authorization)) return null;
      const named = operatorName(req.headers["x-ops-operator"]);
      return { kind: "bearer", operator: named ? `token:${named}` : "token" };
    }
    const session = auth.verify(readCookie(req.headers.cookie, SESSION_COOKIE));
    return session ? { kind: "session", operator: session.operator, session } : null;
  }

  const chromeOf = (c: Caller) =>
    c.kind === "session" ? { operator: c.operator, csrf: auth.csrf(c.session) } : { operator: c.operator };

  async function login(req: IncomingMessage, res: ServerResponse) {
    if (req.method === "GET") {
      if (callerOf(req)) return redirect(res, "/ops");
      return page(res, 200, loginPage());
    }
    const form = await readForm(req);
    const operator = operatorName(form?.get("operator"));
    const typed = form?.get("token") ?? "";
    if (!operator) return page(res, 400, loginPage("Give your name (letters, digits, spaces, . _ @ -)."));
    if (!auth.matches(typed)) {
      logger.warn({ audit: "ops.login", operator, ok: false }, "operator sign-in refused: wrong token");
      return page(res, 401, loginPage("That token is not the operations token."));
    }
    const { value } = auth.issue(operator);
    logger.info({ audit: "ops.login", operator, ok: true }, "operator signed in");
    return redirect(res, "/ops", { "set-cookie": sessionCookie(value, { secure: overHttps(req) }) });
  }

  async function retry(req: IncomingMessage, res: ServerResponse, caller: Caller) {
    const form = await readForm(req);
    if (!form) return page(res, 413, messagePage("Too large", "That form was too large.", chromeOf(caller)));
    if (caller.kind === "session" && !auth.csrfOk(caller.session, form.get("csrf"))) {
      logger.warn(
        { audit: "ops.retry", operator: caller.operator, ok: false },
        "retry refused: bad CSRF token",
      );
      return page(
        res,
        403,
        messagePage("Refused", "The form was stale or not ours; reload the page.", chromeOf(caller)),
      );
    }
    const ref = workspaceRefOf(form.get("ws") ?? "");
    const subId = form.get("sub") ?? "";
    const period = form.get("period") ?? "";
    if (!ref || !/^[A-Za-z0-9_-]{1,64}$/.test(subId) || !/^[A-Za-z0-9_-]{0,64}$/.test(period))
      return caller.kind === "bearer"
        ? json(res, 400, { ok: false, why: "bad_request" })
        : page(
            res,
            400,
            messagePage("Not understood", "That retry named no valid subscription.", chromeOf(caller)),
          );
    const result = await retryDelivery(o.retry, ref, subId, period, caller.operator);
    if (caller.kind === "bearer") return json(res, result.ok ? 200 : 409, result);
    const notice = result.ok
      ? result.action === "resumed" && result.period === null
        ? "resumed_nothing"
        : result.action
      : result.why;
    return redirect(res, `/ops/workspace/${encodeURIComponent(workspaceLabel(ref))}?notice=${notice}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://ops.invalid");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (path === "/ops/login") return login(req, res);
    const caller = callerOf(req);
    if (!caller) {
      if (req.headers.authorization !== undefined)
        logger.warn({ audit: "ops.auth", ok: false }, "an /ops request with a wrong bearer token");
      if (req.method === "GET" && path !== "/ops/status.json") return redirect(res, "/ops/login");
      return json(
        res,
        401,
        { ok: false, why: "unauthenticated" },
        { "www-authenticate": 'Bearer realm="ops"' },
      );
    }
    const chrome = chromeOf(caller);
    if (path === "/ops/logout") {
      if (caller.kind === "session") {
        const form = await readForm(req);
        if (!auth.csrfOk(caller.session, form?.get("csrf")))
          return page(
            res,
            403,
            messagePage("Refused", "The form was stale or not ours; reload the page.", chrome),
          );
      }
      return redirect(res, "/ops/login", {
        "set-cookie": sessionCookie("", { secure: overHttps(req), clear: true }),
      });
    }
    if (path === "/ops/retry") return retry(req, res, caller);
    if (path === "/ops/status.json") return json(res, 200, await readSummary(o.sources));
    if (path === "/ops") return page(res, 200, overviewPage(await readSummary(o.sources), chrome));
    if (path === "/ops/workspace") {
      const ref = workspaceRefOf(url.searchParams.get("ws") ?? "");
      if (!ref)
        return page(
          res,
          400,
          messagePage("Not a workspace", "Give a team id (T…) or a label such as E01.T0123.", chrome),
        );
      return redirect(res, `/ops/workspace/${encodeURIComponent(workspaceLabel(ref))}`);
    }
    const label = decodeURIComponent(path.slice("/ops/workspace/".length));
    const ref = path.startsWith("/ops/workspace/") ? workspaceRefOf(label) : null;
    if (!ref) return page(res, 404, messagePage("Not found", "There is no such page.", chrome));
    const view = await readWorkspace(o.sources, ref);
    if (url.searchParams.get("format") === "json") return json(res, 200, view);
    return page(res, 200, workspacePage(view, chrome, url.searchParams.get("notice") ?? undefined));
  }

  const handler: CustomRoute["handler"] = (req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error({ err: { message: (err as Error).message } }, "an /ops page failed");
      if (res.headersSent) res.end();
      else page(res, 500, layout("Error", html`<h1>Error</h1><p>${UNREADABLE}</p>`));
    });
  };
  const routes: [string, string[]][] = [
    ["/ops", ["GET"]],
    ["/ops/login", ["GET", "POST"]],
    ["/ops/logout", ["POST"]],
    ["/ops/retry", ["POST"]],
    ["/ops/status.json", ["GET"]],
    ["/ops/workspace", ["GET"]],
    ["/ops/workspace/:ws", ["GET"]],
  ];
  return routes.map(([path, method]) => ({ path, method, handler }));
}

const UNREADABLE = "The page could not be read (Redis or the queue did not answer). Try again.";
