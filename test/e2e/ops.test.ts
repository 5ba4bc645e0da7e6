import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import type { OpsSummary } from "../../src/ops/summary.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { csrfIn, OPS_TOKEN, opsClient, opsStack, plantFailure, REF, until } from "./ops-helpers.ts";

let stack: Stack;
let gone: { sub: Subscription; period: string };
let refused: { sub: Subscription; period: string };

beforeAll(async () => {
  stack = await opsStack(inject("redisUrl"), "ops-e2e");
  // A permanent failure (pauses the subscription) and a fatal one (recorded failed, still active).
  gone = await plantFailure(stack, DEMO.general, "channel_not_found");
  refused = await plantFailure(stack, DEMO.security, "msg_too_long");
});
afterAll(async () => stack?.close());

const bearer = { authorization: `Bearer ${OPS_TOKEN}` };

describe("/ops without credentials", () => {
  it("sends browsers to the login form and answers scripts 401; a wrong token is refused", async () => {
    const c = opsClient(stack.web.url);
    for (const path of ["/ops", `/ops/workspace/-.${DEMO.teamId}`, "/ops/workspace?ws=T1"]) {
      const res = await c.request(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location")).toBe("/ops/login");
    }
    expect((await c.request("/ops/status.json")).status).toBe(401);
    expect((await c.request("/ops/status.json", { headers: { authorization: "Bearer nope" } })).status).toBe(
      401,
    );
    expect((await c.request("/ops", { headers: { authorization: `Bearer ${OPS_TOKEN}x` } })).status).toBe(
      303,
    );
    const retry = await c.form("/ops/retry", { ws: DEMO.teamId, sub: gone.sub.id, period: gone.period });
    expect(retry.status).toBe(401);
    // A forged cookie is no session.
    c.cookie = "ops_session=eyJvcGVyYXRvciI6Im1hbGxvcnkiLCJleHAiOjk5OTk5OTk5OTk5OTksIm5vbmNlIjoieCJ9.AAAA";
    expect((await c.request("/ops")).status).toBe(303);
    const sub = await stack.web.deps.subscriptions.get(REF, gone.sub.id);
    expect(sub?.status).toBe("paused");
  });
});

describe("/ops for scripts (bearer token)", () => {
  it("status.json has the last slot, the day's failures by code per workspace, and the queue", async () => {
    const res = await fetch(`${stack.web.url}/ops/status.json`, { headers: bearer });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const s = (await res.json()) as OpsSummary;
    expect(s.lastSlot?.period).toBe(gone.period);
    const ws = s.day.workspaces.find((w) => w.workspace === `-.${DEMO.teamId}`);
    expect(ws?.failed).toEqual({ channel_not_found: 1, msg_too_long: 1 });
    expect(s.failures.map((f) => f.subId).sort()).toEqual([gone.sub.id, refused.sub.id].sort());
    expect(Object.keys(s.queue.counts).sort()).toEqual([
      "active",
      "delayed",
      "failed",
      "prioritized",
      "waiting",
    ]);
    expect(JSON.stringify(s)).not.toContain(OPS_TOKEN);
  });

  it("retries the fatal failure: its period is queued again and posted, audited with the operator", async () => {
    const before = stack.slack.messages(DEMO.security).length;
    const c = opsClient(stack.web.url);
    const res = await c.form(
      "/ops/retry",
      { ws: DEMO.teamId, sub: refused.sub.id, period: refused.period },
      { ...bearer, "x-ops-operator": "cron job" },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, action: "requeued", period: refused.period });
    const after = await until(async () => {
      const s = await stack.web.deps.subscriptions.get(REF, refused.sub.id);
      return s?.lastDelivery?.outcome === "delivered" ? s : undefined;
    }, "the retried delivery");
    expect(after.lastDelivery?.period).toBe(refused.period);
    expect(stack.slack.messages(DEMO.security).length).toBe(before + 1);
    const audit = stack.logLines.find((l) => l.includes('"audit":"ops.retry"') && l.includes(refused.sub.id));
    expect(audit).toContain('"operator":"token:cron job"');
    expect(audit).toContain('"action":"requeued"');
    // Delivered now: a second retry has nothing to do.
    const again = await c.form(
      "/ops/retry",
      { ws: DEMO.teamId, sub: refused.sub.id, period: refused.period },
      bearer,
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ ok: false, why: "nothing_to_retry" });
  });
});

describe("/ops in a browser session", () => {
  it("signs in with the token, sets a strict HttpOnly cookie, and refuses a wrong token", async () => {
    const c = opsClient(stack.web.url);
    const form = await c.request("/ops/login");
    expect(form.status).toBe(200);
    expect(form.headers.get("content-security-policy")).toContain("default-src 'none'");
    const wrong = await c.form("/ops/login", { operator: "Ada", token: "not-the-token" });
    expect(wrong.status).toBe(401);
    expect(c.cookie).toBe("");
    const res = await c.form("/ops/login", { operator: "Ada", token: OPS_TOKEN });
    expect(res.status).toBe(303);
    const set = res.headers.get("set-cookie") ?? "";
    expect(set).toMatch(/^ops_session=[^;]+; Path=\/ops; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    // Behind a proxy that terminated https, the cookie is Secure.
    const proxied = await opsClient(stack.web.url).form(
      "/ops/login",
      { operator: "Ada", token: OPS_TOKEN },
      { "x-forwarded-proto": "https" },
    );
    expect(proxied.headers.get("set-cookie")).toMatch(/; Secure$/);
    const page = await (await c.request("/ops")).text();
    expect(page).toContain("Signed in as Ada");
    expect(page).toContain("channel_not_found");
    expect(page).not.toContain(OPS_TOKEN);
    expect(stack.logLines.some((l) => l.includes(OPS_TOKEN))).toBe(false);
  });

  it("retries a paused subscription's failure with the session's CSRF token only, and it is posted", async () => {
    const c = opsClient(stack.web.url);
    await c.form("/ops/login", { operator: "Grace Hopper", token: OPS_TOKEN });
    const other = opsClient(stack.web.url);
    await other.form("/ops/login", { operator: "Mallory", token: OPS_TOKEN });
    const path = `/ops/workspace/-.${DEMO.teamId}`;
    const page = await (await c.request(path)).text();
    expect(page).toContain(gone.sub.id);
    expect(page).toContain("the channel no longer exists");
    expect(page).toContain(`aria-label="Resume and deliver ${gone.sub.id}"`);
    const fields = { ws: `-.${DEMO.teamId}`, sub: gone.sub.id, period: gone.period };
    expect((await c.form("/ops/retry", fields)).status).toBe(403);
    const foreign = csrfIn(await (await other.request(path)).text());
    expect((await c.form("/ops/retry", { ...fields, csrf: foreign })).status).toBe(403);
    expect((await stack.web.deps.subscriptions.get(REF, gone.sub.id))?.status).toBe("paused");

    const res = await c.form("/ops/retry", { ...fields, csrf: csrfIn(page) });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${path}?notice=resumed`);
    const after = await until(async () => {
      const s = await stack.web.deps.subscriptions.get(REF, gone.sub.id);
      return s?.lastDelivery?.outcome === "delivered" ? s : undefined;
    }, "the resumed catch-up");
    expect(after).toMatchObject({ status: "active", lastDelivery: { period: gone.period } });
    const audit = stack.logLines.find((l) => l.includes('"audit":"ops.retry"') && l.includes(gone.sub.id));
    expect(audit).toContain('"operator":"Grace Hopper"');
    expect(audit).toContain('"action":"resumed"');
    const done = await (await c.request(path)).text();
    expect(done).not.toContain(`aria-label="Resume and deliver ${gone.sub.id}"`);
  });

  it("signs out only with the CSRF token; the cookie is cleared", async () => {
    const c = opsClient(stack.web.url);
    await c.form("/ops/login", { operator: "Ada", token: OPS_TOKEN });
    const csrf = csrfIn(await (await c.request("/ops")).text());
    expect((await c.form("/ops/logout", {})).status).toBe(403);
    const out = await c.form("/ops/logout", { csrf });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/^ops_session=; .*Max-Age=0/);
    expect((await c.request("/ops")).status).toBe(303);
  });
});
