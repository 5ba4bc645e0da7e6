import {
  type Emulator,
  type Fault,
  type FaultRates,
  startEmulator,
} from "../../../sandbox/analytics/index.ts";
import { type SlackStandIn, startSlackStandIn } from "../../../sandbox/slack/index.ts";
import type { RecordedCall, WorkspaceSeed } from "../../../sandbox/slack/types.ts";
import { startSlackProxy } from "../../integration/slack-proxy.ts";
import { serveRpc } from "../child.ts";

/**
 * The storm's outside world in its own process: the analytics emulator and the Slack stand-in with
 * many workspaces. Kept apart from the app and the worker so their CPU is not shared with what is
 * measured, and so ack latency during a storm is not skewed by serving the storm's own HTTP.
 */

export interface ServicesStart {
  workspaces: WorkspaceSeed[];
  apiKeys: string[];
  /** Emulator delay on every GraphQL request. */
  latencyMs: number;
  perChannelPerSecond: number;
  /** Put a pass-through in front of Slack that can throttle one workspace (see `throttle`). */
  throttleable?: boolean;
  /** conversations.history tier of the app [non_marketplace]. */
  history?: "marketplace" | "non_marketplace";
}

/** What Slack saw of a storm. */
export interface SlackTally {
  /** chat.postMessage calls that carried a digest (metadata event insights_digest) and succeeded. */
  digestPosts: number;
  /** Distinct deliveries (subscription/period) among them. */
  uniqueDeliveries: number;
  /** Failure notices posted in channels instead of a digest. */
  failureNotices: number;
  /** DMs to owners (paused subscriptions). */
  ownerNotices: number;
  /** 429 answers to chat.postMessage. */
  rateLimited: number;
  /** Other refused calls, by Slack error. */
  errors: Record<string, number>;
  calls: number;
  /** files.* calls (uploads, files.info): none on the default path of native charts. */
  filesCalls?: number;
  firstPostAt: number | null;
  lastPostAt: number | null;
}

let emulator: Emulator | undefined;
/** The storm's analytics latency, restored after a reset (clearing faults clears rates too). */
let baseLatencyMs = 0;
let throttled: { token: string; until: number } | undefined;
/** 429s the pass-through answered (the stand-in never sees those calls). */
let throttled429 = 0;
let slack: SlackStandIn | undefined;

interface DigestMeta {
  event_type?: string;
  event_payload?: { delivery?: string };
}

function deliveryOf(c: RecordedCall): string | undefined {
  const meta = c.args.metadata as DigestMeta | undefined;
  return meta?.event_type === "insights_digest" ? meta.event_payload?.delivery : undefined;
}

/** The tally with every delivery: its first post's time, and digest posts per channel (each post counted). */
export interface SlackTallyWithIds extends SlackTally {
  deliveries: string[];
  firstPosts: number[];
  firstPostBy: Record<string, number>;
  postsByChannel: Record<string, number>;
}

/**
 * What the tally has read so far: the watcher asks for it four times a second through a slot of
 * 100,000 digests, so each call reads only the calls recorded since the last (reading the whole
 * record each time took most of this process's core in such a slot, and slowed the stand-ins the
 * product was being measured against).
 */
interface Tallying {
  out: SlackTally;
  seen: Set<string>;
  firstPosts: number[];
  firstPostBy: Record<string, number>;
  postsByChannel: Record<string, number>;
  /** Calls read, as the stand-in counts them (callsFrom). */
  next: number;
}

const freshTally = (): Tallying => ({
  out: {
    digestPosts: 0,
    uniqueDeliveries: 0,
    failureNotices: 0,
    ownerNotices: 0,
    rateLimited: 0,
    errors: {},
    calls: 0,
    filesCalls: 0,
    firstPostAt: null,
    lastPostAt: null,
  },
  seen: new Set(),
  firstPosts: [],
  firstPostBy: {},
  postsByChannel: {},
  next: 0,
});
let tallying = freshTally();

function tally(withIds: boolean): SlackTally | SlackTallyWithIds {
  const s = slack as SlackStandIn;
  const { calls, next } = s.callsFrom(tallying.next);
  // The record was cleared (a reset): count again from its start.
  if (next < tallying.next) tallying = freshTally();
  const t = tallying;
  const { out, seen } = t;
  t.next = next;
  for (const c of calls) {
    out.calls++;
    if (c.method.startsWith("files.")) out.filesCalls = (out.filesCalls ?? 0) + 1;
    if (c.method !== "chat.postMessage") continue;
    if (c.status === 429) {
      out.rateLimited++;
      continue;
    }
    if (!c.ok) {
      const e = c.error ?? `http_${c.status}`;
      out.errors[e] = (out.errors[e] ?? 0) + 1;
      continue;
    }
    const delivery = deliveryOf(c);
    const channel = String(c.args.channel ?? "");
    if (delivery) {
      out.digestPosts++;
      t.postsByChannel[channel] = (t.postsByChannel[channel] ?? 0) + 1;
      if (!seen.has(delivery)) {
        t.firstPosts.push(c.at);
        t.firstPostBy[delivery] = c.at;
      }
      seen.add(delivery);
      out.firstPostAt ??= c.at;
      out.lastPostAt = c.at;
    } else if (channel.startsWith("C") || channel.startsWith("G")) out.failureNotices++;
    else out.ownerNotices++;
  }
  out.uniqueDeliveries = seen.size;
  const copy: SlackTally = { ...out, errors: { ...out.errors } };
  return withIds
    ? {
        ...copy,
        deliveries: [...seen],
        firstPosts: [...t.firstPosts],
        firstPostBy: { ...t.firstPostBy },
        postsByChannel: { ...t.postsByChannel },
      }
    : copy;
}

if (process.send) {
  serveRpc({
    async start(o: ServicesStart) {
      emulator = await startEmulator({ apiKeys: o.apiKeys });
      baseLatencyMs = o.latencyMs;
      emulator.setRates({ latencyMs: o.latencyMs });
      slack = await startSlackStandIn({
        signingSecret: "bench-storm-signing-secret",
        appUrl: "http://127.0.0.1:9/slack/events",
        rateLimit: { enabled: true, perChannelPerSecond: o.perChannelPerSecond },
        workspaces: o.workspaces,
        history: o.history ?? "non_marketplace",
        // The tally reads methods, outcomes, channels and metadata: 100,000 posts' blocks are the
        // stand-in's heap, not the app's work.
        record: "lean",
      });
      if (!o.throttleable) return { graphqlUrl: emulator.graphqlUrl, apiUrl: slack.apiUrl };
      const proxy = await startSlackProxy(slack.apiUrl);
      proxy.rule = (method, token) => {
        if (
          method !== "chat.postMessage" ||
          !throttled ||
          token !== throttled.token ||
          Date.now() >= throttled.until
        )
          return "pass";
        throttled429++;
        return { status: 429, retryAfter: 1 };
      };
      return { graphqlUrl: emulator.graphqlUrl, apiUrl: proxy.apiUrl };
    },
    tally: (withIds: boolean) => tally(withIds),
    /** Forgets recorded calls and messages between runs (workspaces stay). */
    resetCalls: () => {
      slack?.reset();
      tallying = freshTally();
      emulator?.clearFaults();
      // The bare loop must meet the same 100 ms analytics latency as the worker did.
      emulator?.setRates({ latencyMs: baseLatencyMs });
    },
    setRates: (rates: FaultRates) => emulator?.setRates(rates),
    inject: (a: { fault: Fault; times: number }) => emulator?.inject(a.fault, a.times),
    injectHttp: (a: { method: string; status: number; retryAfter?: number; times?: number }) =>
      slack?.injectHttp(a.method, a.status, { retryAfter: a.retryAfter, times: a.times }),
    emulatorRequests: () => emulator?.requestCount() ?? 0,
    /** The emulator's requests and bytes sent, per GraphQL operation (Insights, DriverSlices, …). */
    emulatorByOperation: () => emulator?.byOperation() ?? {},
    /** Slack throttles one workspace: its chat.postMessage calls answer 429 (Retry-After 1 s) for `ms`. */
    throttle: (a: { token: string; ms: number }) => {
      throttled = { token: a.token, until: Date.now() + a.ms };
    },
    throttled429: () => throttled429,
    rss: () => process.memoryUsage().rss,
    async close() {
      await slack?.close();
      await emulator?.close();
    },
  });
}
