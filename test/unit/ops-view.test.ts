import { describe, expect, it } from "vitest";
import type { LogWindow } from "../../src/jobs/delivery-log.ts";
import {
  createOpsAuth,
  operatorName,
  readCookie,
  SESSION_MS,
  sameSecret,
  sessionCookie,
} from "../../src/ops/auth.ts";
import { html } from "../../src/ops/html.ts";
import { overviewPage, workspacePage } from "../../src/ops/pages.ts";
import { retryPlan } from "../../src/ops/retry.ts";
import { subscriptionRow } from "../../src/ops/status.ts";
import { summarize } from "../../src/ops/summary.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { storedSubscription } from "../fixtures/subscription.ts";

const TOKEN = "a-token-of-more-than-thirty-two-characters";
const T0 = Date.parse("2026-11-02T08:30:00Z");

describe("operator authentication", () => {
  it("compares secrets whole, whatever their lengths", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abd")).toBe(false);
    expect(sameSecret("abc", "abcd")).toBe(false);
    expect(sameSecret("", "abc")).toBe(false);
  });

  it("takes the token as a bearer header only, exactly", () => {
    const auth = createOpsAuth(TOKEN);
    expect(auth.bearer(`Bearer ${TOKEN}`)).toBe(true);
    expect(auth.bearer(`bearer ${TOKEN}`)).toBe(true);
    expect(auth.bearer(TOKEN)).toBe(false);
    expect(auth.bearer(`Bearer ${TOKEN}x`)).toBe(false);
    expect(auth.bearer(`Basic ${TOKEN}`)).toBe(false);
    expect(auth.bearer(undefined)).toBe(false);
  });

  it("sessions: signed, expiring, refused when changed or signed with another token", () => {
    let now = T0;
    const auth = createOpsAuth(TOKEN, () => now);
    const { value, session } = auth.issue("Ada");
    expect(value).not.toContain(TOKEN);
    expect(auth.verify(value)).toEqual(session);
    const [body, sig] = value.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...session, operator: "Mallory" })).toString("base64url");
    expect(auth.verify(`${forged}.${sig}`)).toBeNull();
    expect(auth.verify(`${body}.${sig.slice(0, -2)}AA`)).toBeNull();
    expect(auth.verify(body)).toBeNull();
    expect(createOpsAuth(`${TOKEN}-rotated`, () => now).verify(value)).toBeNull();
    now = T0 + SESSION_MS - 1;
    expect(auth.verify(value)).not.toBeNull();
    now = T0 + SESSION_MS;
    expect(auth.verify(value)).toBeNull();
  });

  it("a CSRF token belongs to one session", () => {
    const auth = createOpsAuth(TOKEN);
    const a = auth.issue("Ada").session;
    const b = auth.issue("Ada").session;
    expect(auth.csrfOk(a, auth.csrf(a))).toBe(true);
    expect(auth.csrfOk(a, auth.csrf(b))).toBe(false);
    expect(auth.csrfOk(a, undefined)).toBe(false);
    expect(auth.csrf(a)).not.toContain(TOKEN);
  });

  it("cookies are HttpOnly, SameSite=Strict, scoped to /ops, Secure over https", () => {
    expect(sessionCookie("v", { secure: false })).toBe(
      "ops_session=v; Path=/ops; HttpOnly; SameSite=Strict; Max-Age=28800",
    );
    expect(sessionCookie("v", { secure: true })).toMatch(/; Secure$/);
    expect(sessionCookie("v", { secure: true, clear: true })).toMatch(/^ops_session=; .*Max-Age=0; Secure$/);
    expect(readCookie("a=1; ops_session=xyz.abc; b=2", "ops_session")).toBe("xyz.abc");
    expect(readCookie(undefined, "ops_session")).toBeUndefined();
  });

  it("operator names are short and plain", () => {
    expect(operatorName("  Grace Hopper ")).toBe("Grace Hopper");
    expect(operatorName("ada@example.com")).toBe("ada@example.com");
    expect(operatorName('<script>"')).toBeNull();
    expect(operatorName("line\nbreak")).toBeNull();
    expect(operatorName("")).toBeNull();
    expect(operatorName(42)).toBeNull();
  });
});

describe("the pages", () => {
  it("escape every value", () => {
    const hostile = `<img src=x onerror="alert(1)">&'`;
    expect(html`<td>${hostile}</td>`.text).toBe(
      "<td>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</td>",
    );
    expect(html`<p>${[html`<b>${"<i>"}</b>`, "<u>"]}${null}${false}</p>`.text).toBe(
      "<p><b>&lt;i&gt;</b>&lt;u&gt;</p>",
    );
  });

  const log: LogWindow = {
    counts: [
      { period: "20261102T080000Z", workspace: "-.T1", outcome: "delivered", code: "", n: 3 },
      { period: "20261102T080000Z", workspace: "-.T2", outcome: "failed", code: "channel_not_found", n: 1 },
      { period: "20261102T070000Z", workspace: "-.T1", outcome: "late", code: "", n: 2 },
      { period: "20261102T070000Z", workspace: "-.T1", outcome: "skipped", code: "condition", n: 1 },
      // A test send has no minute: never the last slot.
      { period: "send-x-1", workspace: "-.T3", outcome: "delivered", code: "", n: 1 },
    ],
    failures: [
      {
        workspace: "-.T2",
        subId: "s2",
        period: "20261102T080000Z",
        outcome: "failed",
        reason: "channel_not_found",
        at: "2026-11-02T08:00:02.000Z",
      },
    ],
    skips: [
      {
        workspace: "-.T1",
        subId: "s1",
        period: "20261102T070000Z",
        outcome: "skipped",
        reason: "violations 3 <not> over 500",
        at: "2026-11-02T07:00:02.000Z",
      },
    ],
    stalls: 2,
    overflow: 0,
  };
  const queue = {
    counts: { waiting: 1, prioritized: 5, active: 2, delayed: 0, failed: 1 },
    oldestWaitingSeconds: 42,
  };

  it("the summary: the last slot is the latest scheduled minute; failing workspaces first", () => {
    const s = summarize({ log, queue, now: new Date(T0), lateAfterMs: 300_000 });
    expect(s.lastSlot?.period).toBe("20261102T080000Z");
    expect(s.lastSlot?.workspaces.map((w) => w.workspace)).toEqual(["-.T2", "-.T1"]);
    expect(s.day.totals).toEqual({
      delivered: 4,
      late: 2,
      skipped: { condition: 1 },
      failed: { channel_not_found: 1 },
    });
    expect(s.day.workspaces.map((w) => w.workspace)).toEqual(["-.T2", "-.T1", "-.T3"]);
    expect(s.queue.stalls24h).toBe(2);
    // A verdict for a minute still to come (a clock ahead) is not the last slot.
    const early = summarize({ log, queue, now: new Date("2026-11-02T07:30:00Z"), lateAfterMs: 1 });
    expect(early.lastSlot?.period).toBe("20261102T070000Z");
  });

  it("the overview names the failure, its reason in words, and escapes a skip's reason", () => {
    const page = overviewPage(summarize({ log, queue, now: new Date(T0), lateAfterMs: 300_000 }), {
      operator: "Ada",
      csrf: "c",
    });
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).toContain("Deliveries scheduled for 2026-11-02 08:00 UTC");
    expect(page).toContain("<code>channel_not_found</code>: the channel no longer exists");
    expect(page).toContain("violations 3 &lt;not&gt; over 500");
    expect(page).toContain('<a href="/ops/workspace/-.T2">-.T2</a>');
    expect(page).not.toContain("<script");
  });

  const base = storedSubscription({
    id: "sub1",
    ref: { teamId: "T1" },
    ownerId: "U1",
    channelId: "C1",
    schedule: { kind: "daily" },
  });
  const failed: Subscription = {
    ...base,
    lastDelivery: {
      period: "20261102T080000Z",
      at: "2026-11-02T08:00:03Z",
      outcome: "failed",
      reason: "msg_too_long",
    },
  };

  it("a retry is offered for a failure, never for a pause by a person or a delivered run", () => {
    expect(retryPlan(failed)).toEqual({ kind: "requeue", period: "20261102T080000Z" });
    expect(retryPlan({ ...base, status: "paused", pausedReason: "channel_not_found" })).toEqual({
      kind: "resume",
    });
    expect(retryPlan({ ...base, status: "paused", pausedReason: "paused_by_user" })).toBeNull();
    expect(
      retryPlan({ ...failed, lastDelivery: { ...failed.lastDelivery, outcome: "delivered" } as never }),
    ).toBeNull();
    // A failed test send is sent again, not retried.
    expect(
      retryPlan({ ...failed, lastDelivery: { ...failed.lastDelivery, period: "send-x-1" } as never }),
    ).toBeNull();
  });

  it("the workspace page's retry form carries the session's CSRF token and the failed period", () => {
    const row = subscriptionRow(failed, [new Date("2026-11-03T09:00:00Z")]);
    const page = workspacePage(
      {
        workspace: "-.T1",
        day: { delivered: 0, late: 0, skipped: {}, failed: { msg_too_long: 1 } },
        subscriptions: [row],
        failures: [],
      },
      { operator: "Ada", csrf: "tok-123" },
      "requeued",
    );
    expect(page).toContain('<input type="hidden" name="csrf" value="tok-123">');
    expect(page).toContain('<input type="hidden" name="period" value="20261102T080000Z">');
    expect(page).toContain('aria-label="Retry sub1"');
    expect(page).toContain("Daily at 09:00 UTC");
    expect(page).toContain("2026-11-03 09:00 UTC");
    expect(page).toContain('role="status"');
  });
});
