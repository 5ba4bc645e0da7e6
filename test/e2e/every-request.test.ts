import { describe, expect, it } from "vitest";
import { DOCUMENTED_SHAPES, INTERACTION_SHAPES, type Shape } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { RANGE_PRESETS } from "../../src/ids.ts";
import { encodeState } from "../../templates/state.ts";
import { useFileStack } from "./helpers.ts";
import { requestClaims } from "./interactive-helpers.ts";

/**
 * Every request Slack may send gets an answer within 3 s: the payload shapes Slack documents for
 * events and interactions, replayed signed over HTTP against the real app. Nothing the app does not
 * route is an error; a person who clicked something stale is told so.
 */
const OUT_OF_DATE = "This message is out of date";

const stack = useFileStack(`e2e-every-${process.pid}`, {
  logLevel: "info",
  unlimited: true,
  connect: true,
});

/**
 * Every request handed off so far has been answered: as many request claims say "done" as the web
 * process handed over. What a handed-off answer logs then counts, and nothing still running reaches
 * Slack during the next test.
 */
async function handedOffDone(): Promise<void> {
  await stack.slack.waitFor(
    async () => {
      const metric = await stack.web.deps.metrics.registry
        .getSingleMetric("insights_interactive_requests_total")
        ?.get();
      const handed = (metric?.values ?? []).reduce((n, v) => n + v.value, 0);
      const done = Object.values(await requestClaims(stack)).filter((v) => v === "d").length;
      return done >= handed ? true : undefined;
    },
    { timeoutMs: 20_000, what: "the handed-off requests to be answered" },
  );
}

const errorLines = () => stack.logLines.filter((l) => /"level":(50|60)|"level":"(error|fatal)"/.test(l));
const send = (shape: Shape) =>
  stack.slack.sendShape(shape, { teamId: DEMO.teamId, userId: DEMO.member, channelId: DEMO.general });

describe("the documented payload catalogue", () => {
  it("every shape is acknowledged with 200 within 3 s, and none is logged as an error", async () => {
    expect(DOCUMENTED_SHAPES.length).toBeGreaterThan(80);
    const slow: string[] = [];
    for (const shape of DOCUMENTED_SHAPES) {
      const res = await send(shape);
      expect(res.status, shape.name).toBe(200);
      if (res.ackMs >= 3_000) slow.push(`${shape.name}: ${res.ackMs} ms`);
    }
    expect(slow).toEqual([]);
    await handedOffDone();
    expect(errorLines()).toEqual([]);
  });

  it("a stale click, message shortcut, legacy button or dialog gets the out-of-date reply on its response_url", async () => {
    const withUrl = INTERACTION_SHAPES.filter((s) =>
      /block_actions|message_action|interactive_message|dialog_submission/.test(s.name),
    );
    expect(withUrl).toHaveLength(4);
    for (const shape of withUrl) {
      const res = await send(shape);
      const reply = await stack.slack
        .waitFor(() => stack.slack.responses(res.responseUrl)[0], {
          timeoutMs: 3_000,
        })
        .catch(() => ({ body: `no reply to ${shape.name}` }));
      expect(JSON.stringify(reply.body), shape.name).toContain(OUT_OF_DATE);
      expect((reply.body as { response_type?: string }).response_type).toBe("ephemeral");
    }
  });

  it("a global shortcut and a stale modal get the reply in the app's Messages tab; a closed modal gets nothing", async () => {
    const dms = () =>
      stack.slack.calls({ method: "chat.postMessage" }).filter((c) => c.args.channel === DEMO.member);
    for (const name of ["shortcut (global)", "view_submission of a modal the app no longer opens"]) {
      const before = dms().length;
      const shape = INTERACTION_SHAPES.find((s) => s.name === name) as Shape;
      await send(shape);
      const dm = await stack.slack.waitFor(() => dms()[before]);
      expect(JSON.stringify(dm.args), name).toContain(OUT_OF_DATE);
    }
    const before = stack.slack.calls().length;
    await send(INTERACTION_SHAPES.find((s) => s.name.startsWith("view_closed")) as Shape);
    await new Promise((r) => setTimeout(r, 200));
    expect(stack.slack.calls().length).toBe(before);
  });

  it("type-ahead for a menu the app no longer renders answers with no options at once", async () => {
    const res = await send(INTERACTION_SHAPES.find((s) => s.name.startsWith("block_suggestion")) as Shape);
    expect(res.body).toEqual({ options: [] });
  });
});

describe("app_rate_limited", () => {
  it("is acked, counted, logged with the workspace and minute, and sheds optional work until the next minute", async () => {
    const limited = DOCUMENTED_SHAPES.find((s) => s.name === "app_rate_limited") as Shape;
    const res = await send(limited);
    expect(res.status).toBe(200);
    const line = stack.logLines.find((l) => l.includes("rate limiting this workspace's events"));
    expect(line).toContain(DEMO.teamId);
    expect(line).toMatch(/"minute":\d{10}/);
    const metrics = await (await fetch(`${stack.web.url}/metrics`)).text();
    expect(metrics).toMatch(/insights_app_rate_limited_total \d/);
    const key = stack.web.deps.keys.eventsLimited({ teamId: DEMO.teamId });
    const ttl = await stack.redis.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);

    // Opening the Home tab is optional work: skipped while limited, done again once the minute is over.
    const publishes = () => stack.slack.calls({ method: "views.publish" }).length;
    const before = publishes();
    const home = { type: "app_home_opened", user: DEMO.member, channel: "D0HOME0001", tab: "home" };
    await stack.slack.sendEvent({ teamId: DEMO.teamId, event: home });
    await new Promise((r) => setTimeout(r, 300));
    expect(publishes()).toBe(before);
    await stack.redis.del(key);
    await stack.slack.sendEvent({ teamId: DEMO.teamId, event: home });
    await stack.slack.waitFor(() => publishes() > before);
  });
});

describe("digest controls from every surface", () => {
  it("a range button pressed on the Home tab (no response_url) sends the digest to the Messages tab", async () => {
    await stack.slack.sendEvent({
      teamId: DEMO.teamId,
      event: { type: "app_home_opened", user: DEMO.member, channel: "D0HOME0001", tab: "home" },
    });
    const home = await stack.slack.waitFor(() => stack.slack.homeView(DEMO.member));
    const before = stack.slack.calls({ method: "chat.postMessage" }).length;
    const preset = RANGE_PRESETS[0];
    const state = encodeState({ range: preset.spec, assetIds: [], scannerIds: [] });
    const res = await stack.slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      view: { id: home.id },
      actions: [{ type: "button", action_id: preset.actionId, block_id: "x", value: state }],
    });
    expect(res.status).toBe(200);
    const posted = await stack.slack.waitFor(() =>
      stack.slack
        .calls({ method: "chat.postMessage" })
        .slice(before)
        .find((c) => c.args.channel === DEMO.member),
    );
    expect(String(posted.args.text)).toMatch(/\d findings/);
    expect(errorLines()).toEqual([]);
  });
});
