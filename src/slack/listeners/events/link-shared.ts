import type { WebClient } from "@slack/web-api";
import { unfurlBlocks } from "../../../../templates/unfurl.ts";
import { type DashboardLink, parseDashboardLink } from "../../../digests/dashboard-link.ts";
import { digestToken } from "../../../store/keys.ts";
import { type EventContext, onEvent } from "../../frame/index.ts";

type UnfurlArgs = Parameters<WebClient["chat"]["unfurl"]>[0];

/** Slack shows few unfurls per message; more links than this are left as they are. */
const MAX_UNFURLS = 5;
/** Pasting the same link again within this time shows the same numbers without asking the service. */
const CACHE_SECONDS = 600;

interface Shared {
  channel?: unknown;
  message_ts?: unknown;
  unfurl_id?: unknown;
  source?: unknown;
  user?: unknown;
  links?: unknown;
}

/** The person's timezone, for ranges like `thisweek`; UTC when Slack cannot tell. */
async function zoneOf(ctx: EventContext, userId: unknown): Promise<string> {
  if (typeof userId !== "string") return "UTC";
  try {
    return (await ctx.deps.users.get(ctx.ref, ctx.client, userId)).tz || "UTC";
  } catch {
    return "UTC";
  }
}

/** The unfurl of one link: from the cache, or built from the digest service and cached. */
async function unfurlOf(ctx: EventContext, url: string, link: DashboardLink, tz: string) {
  const now = ctx.deps.clock();
  const key = ctx.deps.keys.unfurl(ctx.ref, digestToken(url, tz, now.toISOString().slice(0, 10)));
  const cached = await ctx.deps.redis.get(key);
  if (cached) return JSON.parse(cached) as { blocks: unknown[] };
  // Slack documents charts and tables for messages only, not for an unfurl's attachment: the unfurl
  // stays text, and fetches no previous period for a chart it would not show.
  const { view } = await ctx.deps.digests.build({ ref: ctx.ref, now, tz, ...link, chart: "off" });
  const unfurl = { blocks: unfurlBlocks(view) };
  await ctx.deps.redis.set(key, JSON.stringify(unfurl), "EX", CACHE_SECONDS);
  return unfurl;
}

function target(event: Shared) {
  if (event.source === "composer" && typeof event.unfurl_id === "string")
    return { unfurl_id: event.unfurl_id, source: "composer" as const };
  return { channel: String(event.channel), ts: String(event.message_ts) };
}

/**
 * Links to the platform's dashboards (see dashboard-link.ts for the forms) get a compact digest
 * under them, for workspaces that connected a key; other links, and workspaces without a key, get
 * nothing. Optional work: skipped while Slack rate limits the workspace's events.
 */
export const linkShared = onEvent({
  id: "link_shared",
  optional: true,
  async run(ctx) {
    const event = ctx.event as Shared;
    const platform = ctx.deps.reach.platformUrl;
    if (!platform || !Array.isArray(event.links)) return;
    const wanted: [string, DashboardLink][] = [];
    for (const l of event.links as { url?: unknown }[]) {
      const url = typeof l?.url === "string" ? l.url : "";
      const link = parseDashboardLink(url, platform);
      if (link && !wanted.some(([u]) => u === url)) wanted.push([url, link]);
    }
    if (wanted.length === 0) return;
    const status = await ctx.deps.apiKeys.status(ctx.ref);
    if (!status?.connected) {
      ctx.log.info("link_shared in a workspace without a platform key: not unfurled");
      return;
    }
    const tz = await zoneOf(ctx, event.user);
    const unfurls: Record<string, { blocks: unknown[] }> = {};
    for (const [url, link] of wanted.slice(0, MAX_UNFURLS)) {
      try {
        unfurls[url] = await unfurlOf(ctx, url, link, tz);
      } catch (err) {
        // A bad range or unknown filter in the link, or the service down: that link stays plain.
        ctx.log.info({ code: (err as { code?: string }).code }, "link not unfurled");
      }
    }
    if (Object.keys(unfurls).length === 0) return;
    await ctx.client.chat.unfurl({ ...target(event), unfurls } as UnfurlArgs);
  },
});
