import { insightsDocument } from "../../../src/analytics/documents.ts";
import { insightsVariables } from "../../../src/analytics/input.ts";
import { serveRpc } from "../child.ts";

/**
 * The yardstick for the storm: per digest only the two HTTP calls a delivery cannot avoid, the
 * GraphQL insights query and chat.postMessage of a ready-made digest of the same size, at the same
 * concurrency as the worker. A 429 waits its Retry-After and posts again, as any client must.
 */

export interface BareItem {
  apiKey: string;
  token: string;
  channel: string;
  from: string;
  to: string;
}

export interface BareRun {
  graphqlUrl: string;
  apiUrl: string;
  items: BareItem[];
  concurrency: number;
  /** The digest to post (text + blocks), rendered once by the bench. */
  message: { text: string; blocks: unknown[] };
}

export interface BareResult {
  ms: number;
  delivered: number;
  failed: number;
  rateLimited: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function one(r: BareRun, item: BareItem, blocks: string, stats: BareResult): Promise<void> {
  const query = await fetch(r.graphqlUrl, {
    method: "POST",
    headers: { authorization: `ApiKey ${item.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: insightsDocument(true),
      variables: insightsVariables({ fromDay: item.from, toDay: item.to }),
    }),
  });
  const data = (await query.json()) as { data?: unknown };
  if (!query.ok || !data.data) {
    stats.failed++;
    return;
  }
  for (let tries = 0; tries < 20; tries++) {
    const body = new URLSearchParams({ channel: item.channel, text: r.message.text, blocks });
    const res = await fetch(`${r.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: { authorization: `Bearer ${item.token}`, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    if (res.status === 429) {
      await res.arrayBuffer();
      stats.rateLimited++;
      await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
      continue;
    }
    const reply = (await res.json()) as { ok?: boolean };
    if (reply.ok) stats.delivered++;
    else stats.failed++;
    return;
  }
  stats.failed++;
}

export async function runBare(r: BareRun): Promise<BareResult> {
  const stats: BareResult = { ms: 0, delivered: 0, failed: 0, rateLimited: 0 };
  const blocks = JSON.stringify(r.message.blocks);
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < r.items.length; i = next++) await one(r, r.items[i] as BareItem, blocks, stats);
  };
  await Promise.all(Array.from({ length: r.concurrency }, lane));
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

if (process.send) serveRpc({ run: (r: BareRun) => runBare(r), rss: () => process.memoryUsage().rss });
