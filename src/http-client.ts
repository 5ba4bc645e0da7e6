import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { AppError } from "./errors.ts";

/** What came back: the status, the headers and the body as text. */
export interface PostReply {
  status: number;
  ok: boolean;
  text: string;
  headers: IncomingHttpHeaders;
}

// Connections are kept between posts: a worker answers many requests on the same few hosts. An idle
// one is dropped after 4 s (sooner when the server's Keep-Alive hint says so), before a server that
// gives no hint closes it under a post that is being sent.
const agents = {
  "http:": new HttpAgent({ keepAlive: true, timeout: 4_000 }),
  "https:": new HttpsAgent({ keepAlive: true, timeout: 4_000 }),
};

/**
 * One POST over node:http(s), for what a worker sends by the thousand (response_url answers, Slack
 * Web API calls). The global fetch costs several times the CPU per request (a Request and a web
 * stream per body, an abort signal per call, the body written in pieces); here the headers and the
 * body leave in one write on a kept-alive connection.
 *
 * @throws AppError `post_timeout` when no complete answer came within `timeoutMs`, `post_failed`
 * when the peer could not be reached or dropped the connection (the cause's code is kept).
 */
export function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostReply> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  if (!secure && target.protocol !== "http:")
    return Promise.reject(new AppError("post_failed", `Cannot post to a ${target.protocol} URL.`));
  const payload = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  return new Promise<PostReply>((resolve, reject) => {
    let settled = false;
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    };
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method: "POST",
        agent: agents[secure ? "https:" : "http:"],
        headers: { ...headers, "content-length": payload.length },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (err) => fail(failure(err)));
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          resolve({
            status,
            ok: status >= 200 && status < 300,
            text: Buffer.concat(chunks).toString("utf8"),
            headers: res.headers,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      fail(new AppError("post_timeout", `No answer within ${timeoutMs} ms.`, { details: { timeoutMs } }));
      req.destroy();
    }, timeoutMs);
    req.on("error", (err) => fail(failure(err)));
    req.end(payload);
  });
}

/** One JSON POST (a response_url answer): `post` with a JSON body. */
export function postJson(url: string, body: string, timeoutMs: number): Promise<PostReply> {
  return post(url, body, { "content-type": "application/json; charset=utf-8" }, timeoutMs);
}

/**
 * A fetch for the app's own POSTs to a service (the analytics GraphQL calls): the same Request in,
 * a real Response out, over node:http(s) with kept-alive connections; what fetch does with a string
 * body at a fraction of its CPU. Anything else (a streamed body, a redirect to follow) goes to the
 * global fetch, so its behaviour is fetch's.
 */
export const nodeFetch: typeof fetch = async (input, init = {}) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  const body = init.body;
  if (url === undefined || (body !== undefined && body !== null && typeof body !== "string"))
    return fetch(input, init);
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") return fetch(input, init);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => {
    headers[k] = v;
  });
  const payload = typeof body === "string" ? Buffer.from(body, "utf8") : undefined;
  if (payload) headers["content-length"] = String(payload.length);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const secure = target.protocol === "https:";
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      { method: init.method ?? "GET", agent: agents[secure ? "https:" : "http:"], headers },
      resolve,
    );
    // The same shape as fetch's failures: a TypeError whose cause says why (ECONNREFUSED…).
    req.on("error", (err) =>
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: err })),
    );
    signal?.addEventListener("abort", () => req.destroy(), { once: true });
    req.end(payload);
  });
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400 && res.headers.location) {
    res.resume();
    return fetch(input, init);
  }
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", resolve);
    res.on("error", reject);
    res.on("aborted", () => reject(signal?.reason ?? new TypeError("fetch failed")));
    signal?.addEventListener("abort", () => res.destroy(signal.reason), { once: true });
  }).catch((err: unknown) => {
    throw signal?.aborted
      ? signal.reason
      : err instanceof TypeError
        ? err
        : new TypeError("fetch failed", { cause: err });
  });
  const replyHeaders = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    replyHeaders.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  const empty = status === 204 || status === 205 || status === 304;
  return new Response(empty ? null : Buffer.concat(chunks), {
    status,
    statusText: res.statusMessage ?? "",
    headers: replyHeaders,
  });
};

/** A network failure by its code (ECONNREFUSED, ECONNRESET…), never the URL, which may be a credential. */
function failure(err: Error & { code?: string }): AppError {
  const code = typeof err.code === "string" ? err.code : "network";
  return new AppError("post_failed", `The post did not go through (${code}).`, { details: { reason: code } });
}
