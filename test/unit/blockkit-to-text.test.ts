import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayWidth, EMOJI, renderMrkdwn, wrap } from "../../src/blockkit/terminal.ts";
import { renderText } from "../../src/blockkit/to-text.ts";
import { computeDrivers } from "../../src/insights/drivers.ts";
import { connectModal } from "../../templates/connect-modal.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { makeView } from "./fixtures/digest-view.ts";
import { trendView } from "./fixtures/trend-view.ts";

const totals = (v: number, vp: number) => ({
  violations: { current: v, previous: vp },
  findings: { current: v * 3, previous: vp * 3 },
  fixes: { current: 20, previous: 15 },
});

const plain = { color: false };
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes in assertions
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("renderText on a digest", () => {
  const out = renderText(
    digestMessage(
      makeView({ chart: { imageUrl: "https://img.example.com/c.png", altText: "Violations per day" } }),
    ),
    { width: 100 },
  );

  it("shows the header underlined, the numbers, the menus and the buttons", () => {
    const lines = out.split("\n");
    expect(lines[0]).toBe("Insights · Nov 15 – Nov 21, 2026");
    expect(lines[1]).toMatch(/^═+$/);
    expect(out).toContain("1,234  🔴 ▲ +132 (+12%)");
    expect(out).toContain("321  🟢 ▼ −17 (−5%)");
    expect(out).toContain("[▾ Asset: All assets] [▾ Scanner: All scanners]");
    expect(out).toContain("[● Last 7 days ] [ Last 30 days ] [ Last 90 days ] [ This week ] [ Last week ]");
    expect(out).toContain("[ Share to channel ] [ Export CSV ] [ Open in platform ↗ ]");
    expect(out).toContain("[chart: Violations per day]");
    expect(out).toContain("Data as of 2026-11-21 09:00 UTC");
  });

  it("lays fields out in two columns", () => {
    const row = out.split("\n").find((l) => l.startsWith("Findings"));
    expect(row).toMatch(/^Findings {2,}Violations$/);
  });

  it("keeps every line within the width", () => {
    fc.assert(
      fc.property(fc.integer({ min: 40, max: 160 }), (width) => {
        const text = renderText(digestMessage(makeView()), { width });
        for (const line of text.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(width);
        // Controls break between buttons, never inside one.
        expect(text).toContain("[ Last 30 days ]");
      }),
      { numRuns: 30 },
    );
  });

  it("adds ANSI styles only when asked, with the same words", () => {
    const colored = renderText(digestMessage(makeView()), { color: true, width: 100 });
    expect(colored).toContain("\x1b[1m");
    expect(colored).toContain("\x1b[2m");
    expect(out).not.toContain("\x1b[");
    expect(stripAnsi(colored).replace(/\s+/g, " ")).toContain("[ Last 7 days ] [ Last 30 days ]");
  });
});

describe("renderText on a native digest: the chart and the table as readable text", () => {
  const view = trendView({
    days: 7,
    partialFrom: "2026-11-21",
    current: (i) => (i + 1) * 10,
    previous: () => 35,
  });
  const drivers = computeDrivers({
    total: {
      violations: { current: 280, previous: 245 },
      findings: { current: 900, previous: 800 },
      fixes: { current: 40, previous: 30 },
    },
    slices: [
      { dimension: "group", key: "payments", label: "payments/*", totals: totals(200, 150) },
      { dimension: "group", key: "web", label: "web/*", totals: totals(80, 95) },
    ],
  });
  const m = digestMessage({
    ...view,
    drivers: { drivers, gaps: [], groups: [], queries: 3, unqueriedGroups: 0 },
  });
  const text = renderText(m, { width: 80 });

  it("draws the chart as titled bars per day and series, with values and the notes under it", () => {
    expect(text).toContain("📈 Violations per day · 2026-11-15 – 2026-11-21");
    expect(text).toContain("█ This period   ░ Previous period");
    const lines = text.split("\n");
    const sat = lines.findIndex((l) => l.startsWith("Sat Nov 21 so far"));
    expect(lines[sat]).toMatch(/^Sat Nov 21 so far +█+ +70$/);
    // The longest bar is the largest value; the previous period's bar sits on the next line.
    expect(lines[sat + 1]).toMatch(/^ +░+ +35$/);
    expect((lines[sat]?.match(/█/g) ?? []).length).toBeGreaterThan(
      (lines[sat + 1]?.match(/░/g) ?? []).length,
    );
    expect(text.replace(/\s+/g, " ")).toContain("Sat Nov 21 is today so far (partial)");
  });

  it("lays the drivers table out in aligned columns under a rule", () => {
    const lines = text.split("\n");
    const head = lines.findIndex((l) => l.startsWith("Breakdown"));
    expect(lines[head]).toMatch(/^Breakdown +Asset group or scanner +Now +Before +Change$/);
    expect(lines[head + 1]).toMatch(/^─+$/);
    expect(lines.slice(head + 2)).toContainEqual(
      expect.stringMatching(/^Violations by asset group +payments\/\* +200 +150 +\+50$/),
    );
  });

  it("keeps every line within the width", () => {
    for (const width of [40, 60, 80, 120]) {
      const t = renderText(m, { width });
      for (const line of t.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    }
  });
});

describe("renderMrkdwn", () => {
  it.each([
    ["*bold* and _italic_ and ~gone~", "bold and italic and gone"],
    ["see <https://example.com|the docs>", "see the docs (https://example.com)"],
    ["<https://example.com>", "https://example.com"],
    ["by <@U123> in <#C456> for <!here>", "by @U123 in #C456 for @here"],
    ["at <!date^1795251600^{date_short_pretty}|2026-11-21 09:00 UTC>", "at 2026-11-21 09:00 UTC"],
    ["`code *stays*`", "code *stays*"],
    ["&lt;@U123&gt; &amp; co", "<@U123> & co"],
    ["snake_case_name stays", "snake_case_name stays"],
    [":warning: careful", "⚠️ careful"],
  ])("%s", (input, expected) => {
    expect(renderMrkdwn(input, plain)).toBe(expected);
  });

  it("draws every emoji code our messages use, as Slack would", () => {
    // Every `:code:` written in the code that builds Slack text, so a new one cannot show raw (an emoji
    // code starts a word and is followed by a space; key patterns like `${prefix}:ws:` are not codes).
    const dirs = ["templates", "commands", "src/slack", "src/jobs"];
    const files = dirs.flatMap((d) =>
      readdirSync(new URL(`../../${d}/`, import.meta.url), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts"))
        .map((f) => new URL(`../../${d}/${f}`, import.meta.url)),
    );
    const codes = new Set(
      files.flatMap((f) => readFileSync(f, "utf8").match(/(?<![\w}$]):[a-z_]+:(?= )/g) ?? []),
    );
    expect(codes).toContain(":calendar:");
    for (const code of codes) expect(renderMrkdwn(`${code} x`, plain), code).not.toContain(code);
    expect(renderMrkdwn(":calendar: Next run", plain)).toBe("📆 Next run");
    expect(
      renderText({ blocks: [{ type: "header", text: { type: "plain_text", text: ":eyes: Preview" } }] }),
    ).toContain("👀 Preview");
    expect(renderMrkdwn(":not_ours: stays", plain)).toBe(":not_ours: stays");
    expect(Object.keys(EMOJI).length).toBe(codes.size);
  });

  it("decodes escaped user text literally instead of as a link", () => {
    expect(renderMrkdwn("&lt;https://evil|x&gt;", plain)).toBe("<https://evil|x>");
  });
});

describe("renderText on other payloads", () => {
  it("renders a modal's title and input", () => {
    const out = renderText(connectModal({}));
    expect(out.split("\n")[0]).toBe("Connect Insights");
    expect(out).toContain("API key: [Paste the key here]");
  });

  it("falls back to the top-level text without blocks, and survives junk", () => {
    expect(renderText({ text: "*hi* there" })).toBe("hi there\n");
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), (junk) => {
        expect(typeof renderText(junk)).toBe("string");
        expect(typeof renderText({ blocks: [junk, { type: "section", fields: [junk] }] })).toBe("string");
      }),
      { numRuns: 200 },
    );
  });

  it("wraps at spaces and counts emoji as two columns", () => {
    expect(displayWidth("🔴 ab")).toBe(5);
    expect(wrap("one two three four", 9)).toEqual(["one two", "three", "four"]);
  });
});
