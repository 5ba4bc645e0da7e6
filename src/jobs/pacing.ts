import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";

/**
 * Pacing of Slack calls per workspace and per channel, in Redis so every worker process shares the
 * counts. Slack limits apps per workspace and method (tiers) and posts per channel (about one a
 * second); a job whose workspace or channel is out of budget is delayed on its own (moveToDelayed),
 * so one busy or throttled workspace never slows the others down. A Slack 429 blocks that workspace's
 * method for Retry-After.
 *
 * The counters are rate-limiter-flexible's fixed windows (one atomic script per take, keys that expire
 * by themselves), keyed inside the workspace's hash tag: they live on its cluster node and go with it
 * on uninstall.
 */

/** A budget: `points` calls per `durationSec`. */
export interface Budget {
  points: number;
  durationSec: number;
}

/** Budgets by Slack method (per workspace), and the per-channel budget of chat.postMessage. */
export interface PacingPolicy {
  channelPosts: Budget;
  methods: Record<string, Budget>;
}

/**
 * Slack's published limits. chat.postMessage: about 1 per second per channel, plus a workspace-wide
 * limit Slack does not publish (600 a minute is well inside what it allows). conversations.history:
 * Tier 3 for Marketplace apps, but 1 a minute (15 messages a page) for apps outside the Marketplace
 * since 2025, and the same for conversations.replies (a threaded run's takeover); the takeover check is
 * the only caller, and rare, so the strict budget is the default.
 * files.*: Tier 4 / Tier 2, taken by the chart's upload and its processing check (chart-ready.ts)
 * whenever the digest goes out with its image. Methods not listed here are not paced.
 */
export const SLACK_PACING: PacingPolicy = {
  channelPosts: { points: 1, durationSec: 1 },
  methods: {
    "chat.postMessage": { points: 600, durationSec: 60 },
    "conversations.history": { points: 1, durationSec: 60 },
    "conversations.replies": { points: 1, durationSec: 60 },
    "files.getUploadURLExternal": { points: 100, durationSec: 60 },
    "files.completeUploadExternal": { points: 20, durationSec: 60 },
    "files.info": { points: 100, durationSec: 60 },
  },
};

/** The verdict on one take: go, or wait this long. */
export type PaceVerdict = { ok: true } | { ok: false; waitMs: number };

export interface Pacer {
  /** Takes one call of `method` for the workspace (and, for posts, one for the channel). */
  take(ref: WorkspaceRef, method: string, channelId?: string): Promise<PaceVerdict>;
  /** Slack answered 429: hold the workspace's `method` for `retryAfterMs`. */
  throttled(ref: WorkspaceRef, method: string, retryAfterMs: number): Promise<void>;
}

/**
 * @example
 * const pacer = createPacer({ redis, keys });
 * const v = await pacer.take(sub.ref, "chat.postMessage", sub.channelId);
 * if (!v.ok) { await job.moveToDelayed(Date.now() + v.waitMs, token); throw new DelayedError(); }
 */
export function createPacer(o: {
  redis: RedisClient;
  keys: KeyScheme;
  policy?: Partial<PacingPolicy>;
}): Pacer {
  const policy: PacingPolicy = {
    channelPosts: o.policy?.channelPosts ?? SLACK_PACING.channelPosts,
    methods: { ...SLACK_PACING.methods, ...o.policy?.methods },
  };
  const limiters = new Map<string, RateLimiterRedis>();
  const limiter = (name: string, b: Budget) => {
    let l = limiters.get(name);
    if (!l) {
      // keyPrefix "" : our keys already carry the workspace namespace (and its hash tag).
      l = new RateLimiterRedis({
        storeClient: o.redis,
        keyPrefix: "",
        points: b.points,
        duration: b.durationSec,
      });
      limiters.set(name, l);
    }
    return l;
  };
  const methodKey = (ref: WorkspaceRef, method: string) => `${o.keys.pacing(ref)}:m:${method}`;

  async function consume(l: RateLimiterRedis, key: string): Promise<number> {
    try {
      await l.consume(key, 1);
      return 0;
    } catch (err) {
      if (err instanceof RateLimiterRes) return Math.max(err.msBeforeNext, 1);
      throw err;
    }
  }

  return {
    async take(ref, method, channelId) {
      const budget = policy.methods[method];
      const waits = await Promise.all([
        budget ? consume(limiter(method, budget), methodKey(ref, method)) : 0,
        method === "chat.postMessage" && channelId
          ? consume(limiter("channel", policy.channelPosts), `${o.keys.pacing(ref)}:c:${channelId}`)
          : 0,
      ]);
      const waitMs = Math.max(...waits);
      return waitMs > 0 ? { ok: false, waitMs } : { ok: true };
    },
    async throttled(ref, method, retryAfterMs) {
      const budget = policy.methods[method] ?? { points: 1, durationSec: 1 };
      await limiter(method, budget).block(
        methodKey(ref, method),
        Math.max(1, Math.ceil(retryAfterMs / 1000)),
      );
    },
  };
}
