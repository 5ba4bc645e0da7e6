import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

export interface SinkEntry {
  at: number;
  body: unknown;
}

/** Words of the app's "busy, your answer is coming" note (BUSY_TEXT); its digest follows on the same url. */
const BUSY_MARK = "Insights is busy right now";

/**
 * Stands in for Slack's response_url endpoints at `/r/<seq>`: keeps the first answer of each seq
 * (with its arrival time, and its body when asked) and tells whoever waits for it. A "busy" note is
 * not the answer: it is counted, and the answer is the first post after it.
 */
export function startSink(keepBodies: boolean) {
  const first = new Map<number, SinkEntry>();
  const busy = new Set<number>();
  const waiters = new Map<number, (e: SinkEntry) => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      const seq = Number((req.url ?? "").split("/").pop());
      const raw = Buffer.concat(chunks).toString("utf8");
      if (Number.isInteger(seq) && raw.includes(BUSY_MARK)) busy.add(seq);
      else if (Number.isInteger(seq) && !first.has(seq)) {
        let body: unknown;
        if (keepBodies || waiters.has(seq)) {
          try {
            body = JSON.parse(raw);
          } catch {
            body = "(not JSON)";
          }
        }
        const entry = { at, body };
        first.set(seq, entry);
        waiters.get(seq)?.(entry);
        waiters.delete(seq);
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
  });
  return {
    first,
    busy,
    waitFor(seq: number, timeoutMs: number): Promise<SinkEntry | undefined> {
      const got = first.get(seq);
      if (got) return Promise.resolve(got);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters.delete(seq);
          resolve(undefined);
        }, timeoutMs);
        waiters.set(seq, (e) => {
          clearTimeout(timer);
          resolve(e);
        });
      });
    },
    async listen(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
