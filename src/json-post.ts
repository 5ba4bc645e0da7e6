import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { AppError } from "./errors.ts";

/** What came back: the status and the body as text. */
export interface JsonPostReply {
  status: number;
  ok: boolean;
  text: string;
}

// Connections are kept between posts: a worker answers many requests on the same few hosts.
const agents = {
  "http:": new HttpAgent({ keepAlive: true }),
  "https:": new HttpsAgent({ keepAlive: true }),
};

/**
 * One JSON POST over node:http(s), for the answers a worker sends by the thousand (response_url
 * posts). The global fetch costs several times the CPU per request (a Request and a web stream per
 * body, an abort signal per call, the body written in pieces); here the headers and the body leave
 * in one write on a kept-alive connection.
 *
 * @throws AppError `post_timeout` when no complete answer came within `timeoutMs`, `post_failed`
 * when the peer could not be reached or dropped the connection (the cause's code is kept).
 */
export function postJson(url: string, body: string, timeoutMs: number): Promise<JsonPostReply> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  if (!secure && target.protocol !== "http:")
    return Promise.reject(new AppError("post_failed", `Cannot post to a ${target.protocol} URL.`));
  const payload = Buffer.from(body, "utf8");
  return new Promise<JsonPostReply>((resolve, reject) => {
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
        headers: { "content-type": "application/json; charset=utf-8", "content-length": payload.length },
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

/** A network failure by its code (ECONNREFUSED, ECONNRESET…), never the URL, which may be a credential. */
function failure(err: Error & { code?: string }): AppError {
  const code = typeof err.code === "string" ? err.code : "network";
  return new AppError("post_failed", `The post did not go through (${code}).`, { details: { reason: code } });
}
