import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { previousRun } from "../../src/subscriptions/schedule.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { connect, startTestStack } from "./helpers.ts";

/** Shared set-up of the /ops tests (HTTP and browser): the app with OPS_TOKEN, a worker, failures planted. */

export const OPS_TOKEN = "ops-test-token-0123456789abcdefghijklmnop";
export const REF = { teamId: DEMO.teamId };

export async function opsStack(redisUrl: string, prefix: string): Promise<Stack> {
  const stack = await startTestStack({
    redisUrl,
    prefix,
    env: { OPS_TOKEN },
    worker: {
      policy: { attempts: 1, backoffMs: 100 },
      analyticsRetry: { attempts: 1 },
      claims: { leaseMs: 3_000 },
    },
  });
  stack.slack.setRateLimit({ enabled: false });
  await connect(stack);
  return stack;
}

export async function until<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  ms = 20_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A daily subscription of `channelId` whose run of today (or yesterday) at 09:00 UTC fails with Slack's
 * `error`, as a scheduled run would: the stand-in refuses that one post. Created two days ago (written
 * on the record), so a resume after a pause delivers that run as its catch-up. Returns the record once
 * its failure is recorded.
 */
export async function plantFailure(
  stack: Stack,
  channelId: string,
  error: string,
): Promise<{ sub: Subscription; period: string }> {
  const { subscriptions } = stack.web.deps;
  const { subscription: sub } = await subscriptions.create(
    REF,
    { channelId, schedule: { kind: "daily" }, time: "09:00", tz: "UTC" },
    DEMO.admin,
  );
  const keys = createKeyScheme({ prefix: stack.prefix });
  await stack.redis.hset(
    keys.subscription(REF, sub.id),
    "created",
    new Date(Date.now() - 2 * 86_400_000).toISOString(),
  );
  const period = periodOf(previousRun(sub.schedule, sub.time, sub.tz, new Date()) as Date);
  stack.slack.injectError("chat.postMessage", error);
  const queue = stack.worker?.queue;
  if (!queue) throw new Error("the stack has no worker");
  await queue.add(
    "catchup",
    { sub: `-.${DEMO.teamId}.${sub.id}`, period, ch: channelId },
    { jobId: `plant-${sub.id}` },
  );
  const failed = await until(async () => {
    const s = await subscriptions.get(REF, sub.id);
    return s?.lastDelivery?.outcome === "failed" ? s : undefined;
  }, `the planted ${error}`);
  // The run goes on after its verdict is written (a paused subscription's owner is told by DM, a fatal
  // one's channel gets a notice): until its job has ended, a post of it could take the error the next
  // plant injects, and that plant's own post would then go through.
  await until(async () => {
    const state = await queue.getJobState(`plant-${sub.id}`);
    return state === "failed" || state === "completed" ? state : undefined;
  }, `the end of the planted ${error}'s run`);
  return { sub: failed, period };
}

/** A browser-like client: follows nothing, keeps the session cookie. */
export function opsClient(base: string) {
  let cookie = "";
  return {
    get cookie() {
      return cookie;
    },
    set cookie(v: string) {
      cookie = v;
    },
    async request(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      if (cookie) headers.set("cookie", cookie);
      const res = await fetch(`${base}${path}`, { ...init, headers, redirect: "manual" });
      const set = res.headers.get("set-cookie");
      if (set) cookie = set.split(";")[0] ?? "";
      return res;
    },
    form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
      return this.request(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    },
  };
}

/** The hidden CSRF field of a page's forms. */
export const csrfIn = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
