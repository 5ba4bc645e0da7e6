import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkMessage, checkView } from "../../src/blockkit/limits.ts";
import type { ActionsBlock, ButtonElement, InputBlock } from "../../src/blockkit/types.ts";
import { AppError } from "../../src/errors.ts";
import { ACTION, BLOCK, CALLBACK } from "../../src/ids.ts";
import { connectModal } from "../../templates/connect-modal.ts";
import { errorMessage } from "../../templates/error-message.ts";
import { optionsForQuery } from "../../templates/filter-menu.ts";
import { helpMessage } from "../../templates/help.ts";
import { type SubscriptionView, subscriptionList } from "../../templates/subscriptions.ts";
import { manyAssets } from "./fixtures/digest-view.ts";
import { hostileRowFields, hostile as hostileText } from "./fixtures/hostile.ts";
import { mrkdwnIn } from "./fixtures/mrkdwn.ts";

/** All mrkdwn text of a payload, top-level text included. */
function mrkdwn(value: unknown): string {
  const text = (value as { text?: unknown }).text;
  return [typeof text === "string" ? text : "", ...mrkdwnIn(value)].join("\n");
}

const hostile = (max: number) => hostileText(max, 40);

/** No raw Slack control sequence survives: a `<` only opens the tokens the template itself writes. */
function expectNoRawControls(text: string): void {
  const ours = /<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>]*>|<#C[A-Z0-9]+>|<@U[A-Z0-9]+>/g;
  expect(text.replace(ours, "")).not.toMatch(/[<>]/);
}

describe("helpMessage", () => {
  const forms = [
    "`/insights`",
    "`/insights last7d`",
    "`/insights last14d`",
    "`last30d`",
    "`last90d`",
    "`/insights last45d`",
    "`/insights thisweek`",
    "`lastweek`",
    "`/insights thismonth`",
    "`lastmonth`",
    "..2026-11-15`",
    "`/insights 2026-11-15`",
    'asset:"payments / api"',
    "`/insights scanner:semgrep`",
    "`/insights help`",
    "`/insights connect`",
    "`/insights disconnect`",
    "`/insights status`",
    "`/insights subscribe weekly mon 09:00`",
    "`/insights subscriptions`",
    "`/insights unsubscribe &lt;id&gt;`",
    "`/insights pause &lt;id&gt;`",
    "`resume &lt;id&gt;`",
    "`/insights send &lt;id&gt;`",
  ];

  it("shows an example of every grammar form and passes the checker", () => {
    const m = helpMessage({ commandName: "/insights", canManage: true });
    expect(checkMessage(m)).toEqual([]);
    const text = mrkdwn(m);
    for (const f of forms) expect(text).toContain(f);
    expect(text).not.toContain("admins only");
  });

  it("marks management commands for admins when the reader is not one", () => {
    const text = mrkdwn(helpMessage({ commandName: "/insights", canManage: false }));
    expect(text).toContain("*Setup and schedules* (workspace admins only)");
  });

  it("uses the installed command name", () => {
    const m = helpMessage({ commandName: "/insights-dev", canManage: true });
    expect(mrkdwn(m)).toContain("`/insights-dev last7d`");
    expect(checkMessage(m)).toEqual([]);
  });
});

describe("errorMessage", () => {
  const codes = [
    "unauthorized",
    "rate_limited",
    "unavailable",
    "bad_response",
    "graphql",
    "bad_request",
    "bad_range",
    "not_connected",
    "forbidden",
    "unknown_command",
    "not_in_channel",
    "internal",
    "bad_state",
    "something_new",
  ];

  it("has a distinct, valid reply for every code", () => {
    const titles = codes.map((code) => {
      const m = errorMessage({ code });
      expect(checkMessage(m)).toEqual([]);
      return m.text;
    });
    expect(new Set(titles).size).toBe(codes.length);
  });

  it.each([
    ["unauthorized", "`/insights connect`"],
    ["not_connected", "`/insights connect`"],
    ["unavailable", "Nothing is lost; try again"],
    ["bad_response", "reported"],
    ["forbidden", "Only workspace admins"],
    ["not_in_channel", "`/invite @Insights`"],
  ])("%s says what to do", (code, phrase) => {
    expect(mrkdwn(errorMessage({ code }))).toContain(phrase);
  });

  it("gives the wait for rate limits in whole seconds", () => {
    expect(mrkdwn(errorMessage({ code: "rate_limited", retryAfterMs: 12_300 }))).toContain(
      "Try again in 13 seconds.",
    );
    expect(mrkdwn(errorMessage({ code: "rate_limited" }))).toContain("Try again in a minute.");
  });

  it("echoes a range error's message, with the accepted forms it lists", () => {
    const m = errorMessage({
      code: "bad_range",
      message: "lastXd is not a range. Accepted: `last7d`, `2026-11-01..2026-11-15`.",
    });
    expect(mrkdwn(m)).toContain("lastXd is not a range. Accepted: `last7d`, `2026-11-01..2026-11-15`.");
  });

  it("suggests the closest command and shows the reference id", () => {
    const m = errorMessage({
      code: "unknown_command",
      suggestion: "/insights last7d",
      referenceId: "req-42",
    });
    const text = mrkdwn(m);
    expect(text).toContain("Did you mean `/insights last7d`?");
    expect(text).toContain("Reference `req-42`");
  });

  it("never shows an internal error's message", () => {
    expect(mrkdwn(errorMessage({ code: "internal", message: "TypeError at db.ts:12" }))).not.toContain(
      "TypeError",
    );
  });

  it("redacts secrets and escapes hostile messages", () => {
    fc.assert(
      fc.property(fc.constantFrom(...codes), hostile(3000), hostile(300), (code, message, suggestion) => {
        const m = errorMessage({
          code,
          message: `${message} ApiKey sk_live_123 xoxb-1-2-3`,
          suggestion,
          referenceId: message,
        });
        expect(checkMessage(m)).toEqual([]);
        const text = mrkdwn(m);
        expect(text).not.toContain("sk_live_123");
        expect(text).not.toContain("xoxb-1-2-3");
        expectNoRawControls(text);
      }),
    );
  });
});

describe("connectModal", () => {
  it("asks for the key in an empty input with the ids handlers read", () => {
    const view = connectModal({ endpoint: "https://api.example.com/analytics/graphql" });
    expect(checkView(view)).toEqual([]);
    expect(view.callback_id).toBe(CALLBACK.connectModal);
    const input = view.blocks.find((b): b is InputBlock => b.type === "input");
    expect(input?.block_id).toBe(BLOCK.apiKey);
    expect(input?.element).toMatchObject({ type: "plain_text_input", action_id: ACTION.apiKeyInput });
    expect(input?.element).not.toHaveProperty("initial_value");
    expect(mrkdwn(view)).toContain("`https://api.example.com/analytics/graphql`");
  });

  it("shows an error and carries private metadata; junk stays escaped and within limits", () => {
    fc.assert(
      fc.property(hostile(2000), hostile(2000), fc.string({ maxLength: 3000 }), (error, endpoint, meta) => {
        const view = connectModal({ error, endpoint, privateMetadata: meta });
        expect(checkView(view)).toEqual([]);
        expect(view.private_metadata).toBe(meta);
        expectNoRawControls(mrkdwn(view));
      }),
    );
  });

  it("refuses metadata it would have to cut", () => {
    expect(() => connectModal({ privateMetadata: "x".repeat(3001) })).toThrow(AppError);
  });
});

const sub = (over: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: "sub-1",
  channelId: "C0123ABC",
  ownerId: "U0123ABC",
  schedule: "Weekly on Mon at 09:00",
  tz: "Europe/Berlin",
  range: "last7d",
  filterNames: ["payments / api"],
  paused: false,
  nextRunAt: "2026-11-23T08:00:00Z",
  lastDelivery: { at: "2026-11-16T08:00:00Z", outcome: "delivered" },
  ...over,
});

const buttonsOf = (m: { blocks: unknown[] }) =>
  (m.blocks as ActionsBlock[])
    .filter((b) => b.type === "actions")
    .flatMap((b) => b.elements as ButtonElement[]);

describe("subscriptionList", () => {
  it("shows each subscription with pause/send/delete buttons carrying its id", () => {
    const m = subscriptionList(
      [sub(), sub({ id: "sub-2", paused: true, pausedReason: "channel_not_found" })],
      { canManage: true },
    );
    expect(checkMessage(m)).toEqual([]);
    const text = mrkdwn(m);
    expect(text).toContain("*Weekly on Mon at 09:00* (Europe/Berlin) in <#C0123ABC>");
    expect(text).toContain("Paused: channel_not_found");
    expect(text).toContain("set up by <@U0123ABC>");
    const buttons = buttonsOf(m).map((b) => [b.action_id, b.value]);
    expect(buttons).toEqual([
      [ACTION.subscriptionPause, "sub-1"],
      [ACTION.subscriptionSend, "sub-1"],
      [ACTION.subscriptionDelete, "sub-1"],
      [ACTION.subscriptionResume, "sub-2"],
      [ACTION.subscriptionSend, "sub-2"],
      [ACTION.subscriptionDelete, "sub-2"],
    ]);
    expect(buttonsOf(m).find((b) => b.action_id === ACTION.subscriptionDelete)?.confirm).toBeDefined();
  });

  it("shows no buttons to those who cannot manage, and an invitation when empty", () => {
    expect(buttonsOf(subscriptionList([sub()], { canManage: false }))).toEqual([]);
    const empty = subscriptionList([], { canManage: true });
    expect(mrkdwn(empty)).toContain("`/insights subscribe weekly mon 09:00`");
  });

  it("pages within 50 blocks and 12,000 characters, whatever the data", () => {
    const subArb = fc.record(
      hostileRowFields({
        pieces: 40,
        idMax: 40,
        channelId: "C0123ABC",
        ownerId: "U0123ABC",
        filtersMax: 20,
        reasonMax: 300,
        deliveredAt: fc.constant("2026-11-16T08:00:00Z"),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(subArb, { maxLength: 60 }),
        fc.nat(80),
        fc.integer({ min: -5, max: 100 }),
        fc.boolean(),
        (subs, offset, pageSize, editable) => {
          const m = subscriptionList(subs, { canManage: true, offset, pageSize, editable });
          expect(checkMessage(m)).toEqual([]);
          expectNoRawControls(mrkdwn(m));
          const more = buttonsOf(m).find((b) => b.action_id === ACTION.subscriptionsPage);
          if (more) expect(Number(more.value)).toBeGreaterThan(Math.min(offset, subs.length - 1));
        },
      ),
      { numRuns: 60, endOnFailure: true },
    );
  });

  it("offers the next page with the offset of its first row", () => {
    const subs = Array.from({ length: 23 }, (_, i) => sub({ id: `s${i}` }));
    const first = subscriptionList(subs, { canManage: true });
    expect(buttonsOf(first).find((b) => b.action_id === ACTION.subscriptionsPage)?.value).toBe("10");
    expect(mrkdwn(first)).toContain("…and 13 more.");
    const last = subscriptionList(subs, { canManage: true, offset: 20 });
    expect(buttonsOf(last).some((b) => b.action_id === ACTION.subscriptionsPage)).toBe(false);
    expect(mrkdwn(last)).toContain("showing 21–23");
  });
});

describe("optionsForQuery", () => {
  it("answers as the plain rule does: every usable choice whose name holds the query, by name, first 99", () => {
    const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
    const list = [
      ...manyAssets(400, 7),
      { value: "", displayValue: "no value" },
      { value: "v".repeat(76), displayValue: "value too long" },
      { value: "dup", displayValue: "Zeta service" },
      { value: "dup", displayValue: "Alpha copy" },
      { value: "blank-name", displayValue: "  " },
      { value: "num-10", displayValue: "svc 10" },
      { value: "num-9", displayValue: "svc 9" },
      { value: "case", displayValue: "ÉCOLE api" },
      // Equal names keep list order, past the 99 a reply holds as well as within them.
      { value: "same-1", displayValue: "a same name" },
      { value: "same-2", displayValue: "a same name" },
      { value: "same-3", displayValue: "A Same Name" },
      { value: "late-1", displayValue: "zz same" },
      { value: "late-2", displayValue: "zz same" },
    ];
    const name = (c: { value: string; displayValue: string }) =>
      c.displayValue.trim() === "" ? c.value : c.displayValue;
    const plain = (q: string) => {
      const seen = new Set<string>();
      const usable = list.filter((c) => {
        if (c.value === "" || c.value === "*" || c.value.length > 75 || seen.has(c.value)) return false;
        seen.add(c.value);
        return true;
      });
      return usable
        .filter((c) => name(c).toLocaleLowerCase("en").includes(q.trim().toLocaleLowerCase("en")))
        .sort((x, y) => collator.compare(name(x), name(y)))
        .slice(0, 99)
        .map((c) => c.value);
    };
    for (const q of [
      "",
      "a",
      "child-1",
      "CHILD-12",
      " svc ",
      "école",
      "blank",
      "zzz",
      "alpha",
      "zeta",
      "same",
    ]) {
      const got = optionsForQuery("asset", list, q)
        .options.slice(1)
        .map((o) => o.value);
      expect([q, got]).toEqual([q, plain(q)]);
    }
  });

  it("answers up to 100 options matching the query, the clearing option first", () => {
    const assets = manyAssets(5000, 10);
    const reply = optionsForQuery("asset", assets, "CHILD-12");
    expect(reply.options.length).toBeLessThanOrEqual(100);
    expect(reply.options[0]?.text.text).toBe("All assets");
    expect(reply.options.slice(1).every((o) => /child-12/.test(o.text.text))).toBe(true);
    expect(
      checkMessage({
        text: "t",
        blocks: [
          {
            type: "actions",
            elements: [
              {
                type: "static_select",
                action_id: "a",
                placeholder: { type: "plain_text", text: "p" },
                options: reply.options,
              },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });
});
