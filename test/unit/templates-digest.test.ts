import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkMessageBlocks } from "../../sandbox/slack/blockkit/index.ts";
import type { FilterOption } from "../../src/analytics/types.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import type {
  ActionsBlock,
  Block,
  ButtonElement,
  Message,
  StaticSelectElement,
} from "../../src/blockkit/types.ts";
import { ACTION, BLOCK, RANGE_PRESETS } from "../../src/ids.ts";
import type { DigestView, DriversView } from "../../src/insights/types.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { ALL_VALUE, filterMenu, optionsForQuery, usableChoices } from "../../templates/filter-menu.ts";
import { formatCount } from "../../templates/format.ts";
import { decodeState } from "../../templates/state.ts";
import {
  ASSETS,
  makeDelta,
  makeDigest,
  makeFilters,
  makeView,
  manyAssets,
  SCANNERS,
} from "./fixtures/digest-view.ts";
import { mrkdwnIn } from "./fixtures/mrkdwn.ts";
import { points } from "./fixtures/trend-view.ts";

/** Every mrkdwn text in a payload (plus the top-level text, which Slack also parses). */
function mrkdwnTexts(msg: Message): string[] {
  return [msg.text, ...mrkdwnIn(msg.blocks)];
}

const actionsBlocks = (m: Message) => m.blocks.filter((b): b is ActionsBlock => b.type === "actions");
const elementsOf = (m: Message) => actionsBlocks(m).flatMap((b) => b.elements);
const menu = (m: Message, actionId: string) => elementsOf(m).find((e) => e.action_id === actionId);
const filterBlockOf = (m: Message) =>
  actionsBlocks(m).find((b) => b.elements.some((e) => e.type !== "button"));

const HOSTILE = [
  "<@U123>",
  "<!channel>",
  "<!here>",
  "<https://evil|x>",
  "*",
  "_",
  "~",
  "`",
  "&",
  "|",
  "@",
  "!",
  "#",
  ">",
  "<",
];
const hostileText = (max: number) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...HOSTILE, "😀", "👩‍👩‍👧", "🇩🇪", " / ", "\n", "é"),
        fc.string({ unit: "grapheme", maxLength: 8 }),
      ),
      {
        maxLength: 60,
      },
    )
    .map((parts) => parts.join("").slice(0, max));

const count = fc.oneof(
  fc.constant(0),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.nat(),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
);

/** `n` options named from a small pool of hostile names (unique values, so sizes stay exact). */
function optionsArb(maxCount: number, idPrefix: string) {
  return fc
    .tuple(
      fc.oneof(fc.integer({ min: 0, max: maxCount }), fc.constantFrom(0, 1, 99, 100, 101)),
      fc.array(hostileText(300), { minLength: 1, maxLength: 8 }),
    )
    .map(([n, names]): FilterOption[] =>
      Array.from({ length: n }, (_, i) => ({
        value: `${idPrefix}-${i}`,
        displayValue: names[i % names.length] ?? "",
      })),
    );
}

const pairArb = fc.record({ current: count, previous: count });
const contributionArb = (dimension: "group" | "scanner") =>
  fc
    .record({
      key: fc.option(hostileText(300), { nil: null }),
      label: hostileText(300),
      pair: pairArb,
      isNew: fc.boolean(),
    })
    .map((c) => ({
      dimension,
      key: c.key,
      label: c.label,
      ...c.pair,
      change: c.pair.current - c.pair.previous,
      isNew: c.isNew,
    }));
const breakdownArb = fc
  .record({
    measure: fc.constantFrom("violations" as const, "findings" as const, "fixes" as const),
    dimension: fc.constantFrom("group" as const, "scanner" as const),
    total: pairArb,
    slices: fc.integer({ min: 0, max: 5000 }),
  })
  .chain((b) =>
    fc
      .record({
        up: fc.array(contributionArb(b.dimension), { maxLength: 3 }),
        down: fc.array(contributionArb(b.dimension), { maxLength: 3 }),
        other: fc.option(contributionArb(b.dimension), { nil: null }),
      })
      .map((rows) => ({ ...b, total: { ...b.total, change: b.total.current - b.total.previous }, ...rows })),
  );
const gapArb = fc.record({
  dimension: fc.constantFrom("group" as const, "scanner" as const, "total" as const),
  key: hostileText(300),
  label: hostileText(300),
  from: fc.constantFrom("2026-11-17", "bogus"),
  to: fc.constantFrom("2026-11-19", "2026-11-17"),
  ongoing: fc.boolean(),
  days: fc.nat(),
  expected: fc.double({ noNaN: true }),
  current: fc.boolean(),
  previous: fc.boolean(),
});
const driversArb: fc.Arbitrary<DriversView> = fc.record({
  drivers: fc.record({
    total: fc.record({ violations: pairArb, findings: pairArb, fixes: pairArb }),
    breakdowns: fc.array(breakdownArb, { maxLength: 8 }),
  }),
  gaps: fc.array(gapArb, { maxLength: 40 }),
  groups: fc.array(fc.record({ name: hostileText(300), label: hostileText(300) }), { maxLength: 40 }),
  queries: fc.nat(),
  unqueriedGroups: fc.oneof(fc.constant(0), fc.nat()),
  unqueriedScanners: fc.oneof(fc.constant(0), fc.nat()),
});

const viewArb: fc.Arbitrary<DigestView> = fc
  .record({
    fc: count,
    fp: count,
    vc: count,
    vp: count,
    fixes: count,
    merged: count,
    assets: fc.option(optionsArb(5000, "00000000-0000-4000-8000"), { nil: null, freq: 5 }),
    scanners: fc.option(optionsArb(150, "scanner"), { nil: null, freq: 5 }),
    pick: fc.array(fc.nat(), { maxLength: 4 }),
    unknownSelected: fc.boolean(),
    spec: fc.constantFrom(
      "last7d",
      "last30d",
      "last90d",
      "thisweek",
      "lastweek",
      "last45d",
      "2026-11-01..2026-11-15",
    ),
    label: hostileText(300),
    sparkline: hostileText(500),
    missing: fc.array(fc.constantFrom("2026-11-17", "2026-11-18", "bogus"), { maxLength: 400 }),
    dropped: count,
    generatedAt: fc.oneof(fc.constant("2026-11-21T09:00:00.000Z"), hostileText(50)),
    platformUrl: fc.option(
      fc.oneof(
        fc.constant("https://app.example.com/a?b=c&d=e"),
        fc.constant("javascript:alert(1)"),
        hostileText(100),
      ),
      { nil: undefined },
    ),
    chart: fc.option(
      fc.record({
        imageUrl: fc.option(fc.constant("https://img.example.com/c.png"), { nil: undefined }),
        slackFileId: fc.option(fc.constant("F0123"), { nil: undefined }),
        altText: hostileText(3000),
      }),
      { nil: undefined },
    ),
    shareable: fc.boolean(),
    explainable: fc.boolean(),
    drivers: fc.option(driversArb, { nil: undefined, freq: 2 }),
    ownGaps: fc.array(gapArb, { maxLength: 12 }),
    groups: fc.array(hostileText(300), { maxLength: 25 }),
    partial: fc.option(fc.constantFrom("2026-11-21", "2026-11-15", "bogus"), { nil: null }),
    unavailable: fc.option(hostileText(500), { nil: undefined, freq: 5 }),
    chartStyle: fc.constantFrom(
      undefined,
      "native" as const,
      "native" as const,
      "png" as const,
      "off" as const,
    ),
    seriesDays: fc.oneof(fc.constantFrom(1, 7, 30, 90, 366), fc.integer({ min: 1, max: 366 })),
    seriesValues: fc.array(fc.option(count, { nil: null, freq: 4 }), { minLength: 366, maxLength: 366 }),
    withPrevious: fc.boolean(),
  })
  .map((r) => {
    const pickFrom = (list: FilterOption[] | null) =>
      list && list.length > 0 ? r.pick.map((i) => (list[i % list.length] as FilterOption).value) : [];
    const selectedAssetIds = [...new Set(pickFrom(r.assets))];
    if (r.unknownSelected) selectedAssetIds.push("not-in-the-list");
    const digest = makeDigest({
      findings: makeDelta(r.fc, r.fp),
      violations: makeDelta(r.vc, r.vp),
      fixes: r.fixes,
      mergedViolations: r.merged,
      fixRate: r.vc + r.fixes === 0 ? null : r.fixes / (r.vc + r.fixes),
      netChange: r.vc - r.fixes,
      seriesCheck: {
        ok: r.missing.length === 0 && r.dropped === 0,
        missingDays: r.missing,
        droppedEntries: r.dropped,
        unsorted: r.dropped % 2 === 1,
        badTimeStamps: r.dropped % 3,
      },
      trend: { peak: null, quietest: { day: "2026-11-16", value: r.vc }, sparkline: r.sparkline },
      completeness: {
        gaps: r.ownGaps,
        currentIncomplete: r.ownGaps.some((g) => g.current),
        previousIncomplete: r.ownGaps.some((g) => g.previous),
        partialFrom: r.partial,
      },
    });
    digest.range = {
      ...digest.range,
      spec: r.spec,
      label: r.label,
      previousLabel: r.label,
      days: r.seriesDays,
    };
    const series = points(
      "2025-11-21",
      r.seriesValues.slice(0, r.seriesDays).map((v) => v),
    );
    digest.series = series;
    return makeView({
      chartStyle: r.chartStyle,
      ...(r.withPrevious
        ? { previousSeries: points("2024-11-20", r.seriesValues.slice(366 - r.seriesDays)) }
        : {}),
      digest,
      filters: {
        assets: r.assets,
        scanners: r.scanners,
        selectedAssetIds,
        selectedScannerIds: [...new Set(pickFrom(r.scanners))],
        selectedGroups: r.groups.slice(0, 3),
      },
      generatedAt: r.generatedAt,
      platformUrl: r.platformUrl,
      chart: r.chart,
      shareable: r.shareable,
      explainable: r.explainable,
      drivers: r.drivers,
      driversUnavailable: r.unavailable,
    });
  });

// endOnFailure: a counterexample holding 5,000 assets takes minutes to shrink; report it as found.
describe("digestMessage with hostile and extreme data", () => {
  it("always passes the Block Kit checker, escapes every user string and carries the numbers", () => {
    fc.assert(
      fc.property(viewArb, (view) => {
        const m = digestMessage(view);
        expect(checkMessage(m)).toEqual([]);
        // The stand-in's own check (Slack's reference) too, wherever no uploaded file is named.
        if (!view.chart?.slackFileId) expect(checkMessageBlocks(m.blocks)).toEqual([]);
        // No `<` in any mrkdwn text except the date token we write: no mention, no link, ever.
        for (const text of mrkdwnTexts(m))
          expect(text.replace(/<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^<>]*>/g, "")).not.toMatch(
            /[<>]/,
          );
        const d = view.digest;
        for (const n of [d.findings.current, d.violations.current, d.fixes])
          expect(m.text).toContain(formatCount(n));
        const link = elementsOf(m).find((e) => e.action_id === ACTION.openPlatform) as
          | ButtonElement
          | undefined;
        if (link) expect(link.url).toMatch(/^https?:\/\//);
      }),
      { numRuns: 150, endOnFailure: true },
    );
  });

  it("uses grouped static menus up to 100 assets and a type-ahead menu above", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 120 }), (n, parents) => {
        const m = digestMessage(makeView({ filters: makeFilters({ assets: manyAssets(n, parents) }) }));
        expect(checkMessage(m)).toEqual([]);
        const assetMenu = menu(m, ACTION.assetSelect);
        if (n > 100) {
          expect(assetMenu).toMatchObject({ type: "external_select", min_query_length: 1 });
        } else {
          expect(assetMenu?.type).toBe("static_select");
          const s = assetMenu as StaticSelectElement;
          const all = s.options ?? (s.option_groups ?? []).flatMap((g) => g.options);
          expect(all.filter((o) => o.value !== ALL_VALUE)).toHaveLength(n);
          expect(all[0]).toMatchObject({ value: ALL_VALUE, text: { text: "All assets" } });
          if (parents > 0) expect(s.option_groups).toBeDefined();
        }
      }),
      { numRuns: 60, endOnFailure: true },
    );
  });
});

describe("digestMessage content", () => {
  const m = digestMessage(makeView({ attribution: "Shared by <@U123ABC> <!channel>" }));
  const texts = mrkdwnTexts(m).join("\n");

  it("has a header with the range and a context line with the comparison and filters", () => {
    expect(m.blocks[0]).toMatchObject({
      type: "header",
      block_id: BLOCK.digestHeader,
      text: { text: "Insights · Nov 15 – Nov 21, 2026" },
    });
    expect(texts).toContain("Compared with Nov 8 – Nov 14, 2026 · All assets · All scanners");
  });

  it("shows current vs previous with absolute and % change and a direction mark", () => {
    expect(texts).toContain("*1,234*  🔴 ▲ +132 (+12%)");
    expect(texts).toContain("_vs 1,102 before_");
    expect(texts).toContain("*321*  🟢 ▼ −17 (−5%)");
    expect(texts).toContain("*Fixes*\n87");
    expect(texts).toContain("*Merged violations*\n12");
    expect(texts).toContain("*Fix rate*\n21.3%");
    expect(texts).toContain("backlog grew");
  });

  it("says new, not infinity, when the previous period had none", () => {
    const view = makeView({ digest: makeDigest({ findings: makeDelta(5, 0), violations: makeDelta(0, 0) }) });
    const msg = digestMessage(view);
    const all = mrkdwnTexts(msg).join("\n");
    expect(all).toContain("*5*  🔴 ▲ new");
    expect(all).toContain("*0*  ⚪ ■ no change");
    expect(all).not.toMatch(/∞|Infinity|NaN/);
    expect(msg.text).toBe("Insights Nov 15 – Nov 21, 2026: 5 findings (new), 0 violations (0%), 87 fixes");
  });

  it("has a one-line summary with the key numbers", () => {
    expect(m.text).toBe(
      "Insights Nov 15 – Nov 21, 2026: 1,234 findings (+12%), 321 violations (−5%), 87 fixes",
    );
  });

  it("shows the sparkline in a code span with peak and quietest day", () => {
    expect(texts).toContain("`▃▅▆▂█▁▂`");
    expect(texts).toContain("Peak Thu Nov 19 (70) · Quietest Fri Nov 20 (25)");
  });

  it("keeps single-user mentions in the attribution and escapes everything else", () => {
    expect(texts).toContain("Shared by <@U123ABC> &lt;!channel&gt;");
  });

  it("puts the data time in Slack's date token with a UTC fallback", () => {
    expect(texts).toContain("Data as of <!date^1795251600^{date_short_pretty} {time}|2026-11-21 09:00 UTC>");
    expect(texts).toContain("`/insights help`");
  });

  it("marks the current range button primary and gives each the state with its range", () => {
    const range = actionsBlocks(m).find((b) => b.block_id === BLOCK.digestRange);
    const buttons = (range?.elements ?? []) as ButtonElement[];
    expect(buttons.map((b) => b.text.text)).toEqual(RANGE_PRESETS.map((p) => p.label));
    expect(buttons.filter((b) => b.style === "primary").map((b) => b.action_id)).toEqual([
      `digest_range_last7d`,
    ]);
    expect(buttons.map((b) => decodeState(b.value).range)).toEqual(RANGE_PRESETS.map((p) => p.spec));
  });

  it("offers Share only when shareable, the platform link only when known, Export CSV always", () => {
    expect(menu(m, ACTION.share)).toBeDefined();
    expect(menu(m, ACTION.openPlatform)).toMatchObject({ url: "https://app.example.com/analytics" });
    const plain = digestMessage(makeView({ shareable: false, platformUrl: undefined }));
    expect(menu(plain, ACTION.share)).toBeUndefined();
    const links = plain.blocks.find((b) => b.block_id === BLOCK.digestLinks) as { elements: ButtonElement[] };
    expect(links.elements.map((b) => b.action_id)).toEqual([ACTION.exportCsv]);
    // The export carries the digest's own range and filters, as the other controls do.
    const value = (id: string) => (menu(m, id) as ButtonElement | undefined)?.value;
    expect(decodeState(value(ACTION.exportCsv))).toEqual(decodeState(value(ACTION.share)));
  });

  it("groups assets by parent, with the child as option text and a plain group for the rest", () => {
    const s = menu(m, ACTION.assetSelect) as StaticSelectElement;
    const groups = (s.option_groups ?? []).map((g) => [g.label.text, g.options.map((o) => o.text.text)]);
    expect(groups).toEqual([
      ["Clear filter", ["All assets"]],
      ["payments", ["api", "worker"]],
      ["web", ["app"]],
      ["Other", ["infra"]],
    ]);
    expect(s.initial_option?.value).toBe(ALL_VALUE);
    const scanners = menu(m, ACTION.scannerSelect) as StaticSelectElement;
    expect(scanners.options?.map((o) => o.text.text)).toEqual(["All scanners", "Semgrep", "Trivy"]);
  });

  it("builds a list's menu options once and shares them frozen; each menu keeps its own choice", () => {
    const list: FilterOption[] = [
      { value: "b", displayValue: "beta" },
      { value: "a", displayValue: "alpha" },
    ];
    const none = filterMenu("asset", list, []) as StaticSelectElement;
    const chosen = filterMenu("asset", list, ["b"]) as StaticSelectElement;
    // One body of options for both menus; each its own placeholder and pre-selected choice.
    expect(chosen.options).toBe(none.options);
    expect(none.initial_option?.value).toBe(ALL_VALUE);
    expect(chosen.initial_option?.value).toBe("b");
    expect(Object.isFrozen(none.options?.[1])).toBe(true);
    // Changing a shared option would change every digest of the account: it throws instead.
    expect(() => {
      (none.options?.[1] as { value: string }).value = "changed";
    }).toThrow(TypeError);
    // Another budget cuts the texts again: its own body.
    const tight = filterMenu("asset", list, [], 1) as StaticSelectElement;
    expect(tight.options).not.toBe(none.options);
    // Budgets that leave every name whole (each digest leaves the menus its own) share one body.
    for (const budget of [5_000, 5_001, 12_345])
      expect((filterMenu("asset", list, [], budget) as StaticSelectElement).options).toBe(none.options);
    expect(JSON.parse(JSON.stringify(chosen)).options.map((o: { value: string }) => o.value)).toEqual([
      ALL_VALUE,
      "a",
      "b",
    ]);
  });

  it("cuts long names to the budget, the same cut sharing one body whatever the budget that gave it", () => {
    const list: FilterOption[] = Array.from({ length: 20 }, (_, i) => ({
      value: `v${i}`,
      displayValue: `${String(i).padStart(2, "0")} ${"a very long asset name ".repeat(4)}`,
    }));
    const texts = (m: StaticSelectElement) => (m.options ?? []).slice(1).map((o) => o.text.text.length);
    const whole = filterMenu("asset", list, [], 100_000) as StaticSelectElement;
    expect(Math.max(...texts(whole))).toBe(75);
    // 20 names of 40 characters: 800 (cut at 40), 801 cuts at the same length.
    const at40 = filterMenu("asset", list, [], 800) as StaticSelectElement;
    expect(Math.max(...texts(at40))).toBeLessThanOrEqual(40);
    expect((filterMenu("asset", list, [], 801) as StaticSelectElement).options).toBe(at40.options);
    expect(at40.options).not.toBe(whole.options);
    expect(texts(at40).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(800);
  });

  it("draws menus from an account's list without changing it: the service's order stays for the next reader", () => {
    const list: FilterOption[] = [
      { value: "z", displayValue: "zeta" },
      { value: "a", displayValue: "alpha" },
      { value: "z", displayValue: "zeta again" },
      { value: "", displayValue: "no id" },
      { value: "m", displayValue: "mu" },
    ];
    const before = structuredClone(list);
    const first = usableChoices(list);
    expect(first.map((c) => c.value)).toEqual(["z", "a", "m"]);
    const menuOf = filterMenu("asset", list, []) as StaticSelectElement;
    expect(menuOf.options?.map((o) => o.value)).toEqual([ALL_VALUE, "a", "m", "z"]);
    expect(optionsForQuery("asset", list, "").options.map((o) => o.value)).toEqual([
      ALL_VALUE,
      "a",
      "m",
      "z",
    ]);
    // Sorting for the menus happened on copies: the list and its usable choices keep the service's order.
    expect(list).toEqual(before);
    expect(usableChoices(list)).toBe(first);
    expect(first.map((c) => c.value)).toEqual(["z", "a", "m"]);
    // Another list (the next reply) is read afresh.
    expect(usableChoices([...list, { value: "b", displayValue: "beta" }]).map((c) => c.value)).toEqual([
      "z",
      "a",
      "m",
      "b",
    ]);
  });

  it("pre-selects the one active asset and names active filters in the context line", () => {
    const [api] = ASSETS;
    const view = makeView({
      filters: makeFilters({
        selectedAssetIds: [api?.value ?? ""],
        selectedScannerIds: ["semgrep", "trivy"],
      }),
    });
    const msg = digestMessage(view);
    expect((menu(msg, ACTION.assetSelect) as StaticSelectElement).initial_option).toMatchObject({
      value: api?.value,
      text: { text: "api" },
    });
    const scanners = menu(msg, ACTION.scannerSelect) as StaticSelectElement;
    expect(scanners.initial_option).toBeUndefined();
    expect(scanners.placeholder.text).toBe("2 scanners selected");
    expect(mrkdwnTexts(msg).join("\n")).toContain("Assets: payments / api · Scanners: Semgrep, Trivy");
    const state = decodeState(filterBlockOf(msg)?.block_id);
    expect(state).toEqual({ range: "last7d", assetIds: [api?.value], scannerIds: ["semgrep", "trivy"] });
  });

  it("folds single-child parents into Other when parents exceed the group limit", () => {
    const assets = manyAssets(100, 100);
    const s = menu(
      digestMessage(makeView({ filters: makeFilters({ assets }) })),
      ACTION.assetSelect,
    ) as StaticSelectElement;
    const other = s.option_groups?.find((g) => g.label.text === "Other");
    expect(other?.options).toHaveLength(100);
    expect(other?.options[0]?.text.text).toMatch(/^parent-\d+ \/ child-\d+$/);
  });

  it("cuts long names to keep the whole message under the text limit", () => {
    const assets = Array.from({ length: 100 }, (_, i) => ({
      value: `a-${i}`,
      displayValue: `${"p".repeat(200)}${i % 50} / ${"c".repeat(200)}${i}`,
    }));
    const msg = digestMessage(makeView({ filters: makeFilters({ assets }) }));
    expect(checkMessage(msg)).toEqual([]);
    const s = menu(msg, ACTION.assetSelect) as StaticSelectElement;
    const texts = (s.option_groups ?? []).flatMap((g) => g.options.map((o) => o.text.text));
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThan(75);
    expect(texts.every((t) => t.endsWith("…") || t === "All assets")).toBe(true);
  });

  it("says filters are unavailable when the endpoint has none", () => {
    const msg = digestMessage(makeView({ filters: makeFilters({ assets: null, scanners: null }) }));
    expect(menu(msg, ACTION.assetSelect)).toBeUndefined();
    expect(mrkdwnTexts(msg).join("\n")).toContain("Filters are not available from this analytics endpoint.");
    const one = digestMessage(makeView({ filters: makeFilters({ assets: null, scanners: SCANNERS }) }));
    expect(menu(one, ACTION.assetSelect)).toBeUndefined();
    expect(menu(one, ACTION.scannerSelect)).toBeDefined();
  });

  it("warns visibly when the daily series was repaired", () => {
    const seriesCheck = {
      ok: false,
      missingDays: ["2026-11-18", "2026-11-19"],
      droppedEntries: 0,
      unsorted: false,
      badTimeStamps: 0,
    };
    const msg = digestMessage(makeView({ digest: makeDigest({ seriesCheck }) }));
    expect(mrkdwnTexts(msg).join("\n")).toContain(
      "2 days missing from the service's reply (Wed Nov 18, Thu Nov 19): shown as gaps",
    );
    expect(mrkdwnTexts(m).join("\n")).not.toContain("Check the daily figures");
  });

  it("adds the chart as an image block by URL or Slack file", () => {
    const byUrl = digestMessage(
      makeView({ chart: { imageUrl: "https://img.example.com/c.png", altText: "Violations per day" } }),
    );
    expect(byUrl.blocks.find((b: Block) => b.type === "image")).toMatchObject({
      image_url: "https://img.example.com/c.png",
      alt_text: "Violations per day",
    });
    const byFile = digestMessage(
      makeView({ chart: { slackFileId: "F0123", altText: "Violations per day" } }),
    );
    expect(byFile.blocks.find((b: Block) => b.type === "image")).toMatchObject({
      slack_file: { id: "F0123" },
    });
    expect(m.blocks.some((b) => b.type === "image")).toBe(false);
  });
});
