import { describe, expect, it } from "vitest";
import { checkMessageBlocks } from "../../sandbox/slack/blockkit/index.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import type { ActionsBlock, ButtonElement, Message, TableBlock } from "../../src/blockkit/types.ts";
import { ACTION, BLOCK, GROUP_ACTION_PREFIX, RANGE_PRESETS } from "../../src/ids.ts";
import { computeDrivers, type Slice } from "../../src/insights/drivers.ts";
import type { DataGap } from "../../src/insights/gaps.ts";
import type { DigestView, DriversView } from "../../src/insights/types.ts";
import { driversHeadline } from "../../templates/digest-drivers.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { driversReply } from "../../templates/drivers-reply.ts";
import { decodeState } from "../../templates/state.ts";
import { makeDigest, makeFilters, makeView } from "./fixtures/digest-view.ts";

const t = (v: [number, number], f: [number, number], x: [number, number]) => ({
  violations: { current: v[0], previous: v[1] },
  findings: { current: f[0], previous: f[1] },
  fixes: { current: x[0], previous: x[1] },
});
const slices: Slice[] = [
  { dimension: "group", key: "payments", label: "payments/*", totals: t([61, 30], [200, 120], [5, 6]) },
  { dimension: "group", key: "web", label: "web/*", totals: t([20, 24], [80, 90], [40, 20]) },
  { dimension: "group", key: "infra", label: "infra", totals: t([9, 8], [30, 30], [2, 2]) },
  { dimension: "scanner", key: "semgrep", label: "Semgrep", totals: t([70, 45], [250, 180], [30, 18]) },
  { dimension: "scanner", key: "trivy", label: "Trivy", totals: t([20, 17], [60, 60], [17, 10]) },
];
const drivers = computeDrivers({ total: t([90, 62], [310, 240], [47, 28]), slices });
const sca: DataGap = {
  dimension: "scanner",
  key: "trivy",
  label: "Trivy <!channel>",
  from: "2026-11-17",
  to: "2026-11-20",
  ongoing: true,
  days: 4,
  expected: 300,
  current: true,
  previous: false,
};
const withDrivers = (over: Partial<DigestView> = {}) =>
  makeView({
    drivers: {
      drivers,
      gaps: [],
      groups: [
        { name: "payments", label: "payments/*" },
        { name: "web", label: "web/*" },
      ],
      queries: 6,
      unqueriedGroups: 0,
    },
    ...over,
  });

const texts = (m: Message) => JSON.stringify(m.blocks);
const buttons = (m: Message) =>
  m.blocks
    .filter((b): b is ActionsBlock => b.type === "actions")
    .flatMap((b) => b.elements) as ButtonElement[];

describe("the drivers section", () => {
  it("leads with the biggest movers and who fixed most", () => {
    expect(driversHeadline(drivers)).toBe("payments/* +31 violations, Semgrep +25; fixed most: web/*");
  });

  it("breaks each measure down by asset group and by scanner, under the numbers", () => {
    const m = digestMessage(withDrivers());
    expect(checkMessage(m)).toEqual([]);
    const section = m.blocks.find((b) => b.block_id === BLOCK.digestDrivers);
    const text = (section as { text: { text: string } }).text.text;
    expect(text).toContain("*Why it changed* · vs Nov 8 – Nov 14, 2026");
    expect(text).toContain("payments/* +31 violations, Semgrep +25; fixed most: web/*");
    expect(text).toContain("*Violations* 🔴 ▲ +28 (62 → 90)");
    expect(text).toContain("by asset group: payments/* +31 · infra +1 · web/* −4");
    expect(text).toContain("by scanner: Semgrep +25 · Trivy +3");
    expect(text).toContain("*Fixes* 🟢 ▲ +19 (28 → 47)");
    const order = m.blocks.map((b) => b.block_id ?? b.type);
    expect(order.indexOf(BLOCK.digestDrivers)).toBeGreaterThan(order.indexOf("section"));
    expect(m.text).toContain("· payments/* +31 violations, Semgrep +25; fixed most: web/*");
  });

  it("offers each named asset group as a button that narrows the digest to it", () => {
    const m = digestMessage(withDrivers());
    const groupButtons = buttons(m).filter((b) => b.action_id.startsWith(GROUP_ACTION_PREFIX));
    expect(groupButtons.map((b) => [b.action_id, b.text.text])).toEqual([
      [`${GROUP_ACTION_PREFIX}0`, "payments/*"],
      [`${GROUP_ACTION_PREFIX}1`, "web/*"],
    ]);
    expect(decodeState(groupButtons[0]?.value)).toEqual({
      range: "last7d",
      assetIds: [],
      scannerIds: [],
      assetGroups: ["payments"],
    });
  });

  it("when narrowed: says so, keeps the group in range buttons, lets the menus replace it, and widens back", () => {
    const view = withDrivers({ filters: makeFilters({ selectedGroups: ["payments"] }) });
    const m = digestMessage(view);
    expect(texts(m)).toContain("Compared with Nov 8 – Nov 14, 2026 · Assets: payments/* · All scanners");
    const all = buttons(m);
    const group = all.filter((b) => b.action_id.startsWith(GROUP_ACTION_PREFIX));
    expect(group.map((b) => b.text.text)).toEqual(["web/*", "All asset groups"]);
    expect(decodeState(group[1]?.value).assetGroups).toBeUndefined();
    const range = all.find((b) => b.action_id === RANGE_PRESETS[1].actionId);
    expect(decodeState(range?.value).assetGroups).toEqual(["payments"]);
    const menus = m.blocks.find((b) => b.type === "actions" && b.elements.some((e) => e.type !== "button"));
    expect(decodeState(menus?.block_id).assetGroups).toBeUndefined();
  });

  it("says how many groups and scanners were left unnamed for the query budget, or why there is no breakdown", () => {
    const budget = digestMessage(withDrivers({ drivers: { ...withDrivers().drivers!, unqueriedGroups: 4 } }));
    expect(texts(budget)).toContain('4 smaller asset groups are counted in \\"other\\" (query budget).');
    const both = { ...withDrivers().drivers!, unqueriedGroups: 4, unqueriedScanners: 2 };
    expect(texts(digestMessage(withDrivers({ drivers: both })))).toContain(
      '4 smaller asset groups and 2 scanners are counted in \\"other\\" (query budget).',
    );
    const oneScanner = { ...withDrivers().drivers!, unqueriedGroups: 0, unqueriedScanners: 1 };
    expect(texts(digestMessage(withDrivers({ drivers: oneScanner })))).toContain(
      '1 scanner is counted in \\"other\\" (query budget).',
    );
    expect(texts(digestMessage(withDrivers()))).not.toContain("query budget");
    const none = digestMessage(makeView({ driversUnavailable: "The analytics service did not answer." }));
    expect(texts(none)).toContain("No breakdown this time: The analytics service did not answer.");
  });
});

describe("Why? and the notices", () => {
  it("puts Why? on on-demand digests without drivers, carrying the digest's state", () => {
    const m = digestMessage(
      makeView({ explainable: true, filters: makeFilters({ selectedScannerIds: ["trivy"] }) }),
    );
    const why = buttons(m).find((b) => b.action_id === ACTION.explain);
    expect(why?.text.text).toBe("Why?");
    expect(decodeState(why?.value)).toEqual({ range: "last7d", assetIds: [], scannerIds: ["trivy"] });
    expect(
      buttons(digestMessage(withDrivers({ explainable: true }))).some((b) => b.action_id === ACTION.explain),
    ).toBe(false);
    expect(buttons(digestMessage(makeView())).some((b) => b.action_id === ACTION.explain)).toBe(false);
  });

  it("reports a silent scanner as a possible outage and the period as incomplete, never as good news", () => {
    const m = digestMessage(withDrivers({ drivers: { ...withDrivers().drivers!, gaps: [sca] } }));
    expect(checkMessage(m)).toEqual([]);
    const notice = m.blocks.find((b) => b.block_id === BLOCK.digestNotices) as { text: { text: string } };
    expect(notice.text.text).toContain(
      ":warning: No data from *Trivy &lt;!channel&gt;* since Tue Nov 17 — possible scan outage.",
    );
    expect(notice.text.text).toContain("*This period is incomplete:*");
    // The drop in violations may be the silence: no green mark for it.
    expect(texts(m)).toContain("*321*  :warning: ▼ −17 (−5%)\\n_vs 338 before_ · _period incomplete_");
    expect(texts(digestMessage(withDrivers()))).toContain("*321*  🟢 ▼ −17 (−5%)");
    // In the breakdown too: fewer violations in an incomplete period get no green; more fixes still do.
    const dropped = computeDrivers({ total: t([50, 62], [310, 240], [47, 28]), slices });
    const quiet = digestMessage(
      withDrivers({ drivers: { ...withDrivers().drivers!, drivers: dropped, gaps: [sca] } }),
    );
    expect(texts(quiet)).toContain("*Violations* :warning: ▼ −12 (62 → 50)");
    expect(texts(quiet)).toContain("*Fixes* 🟢 ▲ +19 (28 → 47)");
    expect(m.text).toContain("data incomplete (possible scan outage)");
    // Before the numbers: read first.
    const ids = m.blocks.map((b) => b.block_id ?? b.type);
    expect(ids.indexOf(BLOCK.digestNotices)).toBeLessThan(ids.indexOf(BLOCK.digestDrivers));
  });

  it("words a silence that ended and one in the comparison period", () => {
    const ended = { ...sca, ongoing: false, current: false, previous: true, dimension: "total" as const };
    const m = digestMessage(
      makeView({
        digest: makeDigest({
          completeness: {
            gaps: [ended],
            currentIncomplete: false,
            previousIncomplete: true,
            partialFrom: null,
          },
        }),
      }),
    );
    expect(texts(m)).toContain(
      "No data from any scanner from Tue Nov 17 to Fri Nov 20 — possible scan outage.",
    );
    expect(texts(m)).toContain(
      "*The comparison period is incomplete:* the change against it overstates the rise.",
    );
  });

  it("marks today as partial in the scope line", () => {
    const digest = makeDigest({
      completeness: {
        gaps: [],
        currentIncomplete: false,
        previousIncomplete: false,
        partialFrom: "2026-11-21",
      },
    });
    expect(texts(digestMessage(makeView({ digest })))).toContain(
      "· Sat Nov 21 so far (partial, not ranked as a full day)",
    );
  });

  it("answers in a thread with the drivers alone", () => {
    const m = driversReply(withDrivers({ drivers: { ...withDrivers().drivers!, gaps: [sca] } }));
    expect(checkMessage(m)).toEqual([]);
    expect(m.blocks.map((b) => b.block_id ?? b.type)).toEqual([
      "context",
      BLOCK.digestNotices,
      BLOCK.digestDrivers,
      BLOCK.digestDriverGroups,
    ]);
  });
});

describe("the drivers as a table Slack draws", () => {
  const native = (over: Partial<DigestView> = {}) => withDrivers({ chartStyle: "native", ...over });
  const tableOf = (m: Message) => m.blocks.find((b): b is TableBlock => b.type === "table");
  const rowText = (t: TableBlock) => t.rows.map((r) => r.map((c) => c.text));

  it("has a row per named group, scanner and other of each measure, with now, before and change", () => {
    const m = digestMessage(native());
    expect(checkMessage(m)).toEqual([]);
    expect(checkMessageBlocks(m.blocks)).toEqual([]);
    const t = tableOf(m) as TableBlock;
    expect(t.block_id).toBe(BLOCK.digestDriversTable);
    const rows = rowText(t);
    expect(rows[0]).toEqual(["Breakdown", "Asset group or scanner", "Now", "Before", "Change"]);
    expect(rows).toContainEqual(["Violations by asset group", "payments/*", "61", "30", "+31"]);
    expect(rows).toContainEqual(["Violations by asset group", "web/*", "20", "24", "−4"]);
    expect(rows).toContainEqual(["Violations by scanner", "Semgrep", "70", "45", "+25"]);
    expect(rows).toContainEqual(["Fixes by asset group", "web/*", "40", "20", "+20"]);
    expect(t.column_settings?.slice(2)).toEqual([{ align: "right" }, { align: "right" }, { align: "right" }]);
    // The section keeps the headline; the rows leave it for the table.
    const section = JSON.stringify(m.blocks.find((b) => b.block_id === BLOCK.digestDrivers));
    expect(section).toContain("payments/* +31 violations, Semgrep +25; fixed most: web/*");
    expect(section).not.toContain("by asset group:");
  });

  it("keeps the rows in words in the message's text, for clients that cannot draw the table", () => {
    const m = digestMessage(native());
    expect(m.text).toContain("by asset group: payments/* +31 · infra +1 · web/* −4");
    expect(m.text).toContain("*Fixes* 🟢 ▲ +19 (28 → 47)");
    expect(digestMessage(withDrivers()).text).not.toContain("by asset group:");
  });

  it("puts hostile names in plain cells on one line, and stays within Slack's rows and cells", () => {
    const long = `<!channel> *x*\n${"é".repeat(400)}`;
    const hostileSlices: Slice[] = Array.from({ length: 40 }, (_, i) => ({
      dimension: i % 2 === 0 ? ("group" as const) : ("scanner" as const),
      key: `k${i}`,
      label: `${long}${i}`,
      totals: t([i * 3, i], [i * 5, i * 2], [i, 0]),
    }));
    const d = computeDrivers({ total: t([5000, 20], [9000, 40], [400, 0]), slices: hostileSlices });
    const m = digestMessage(native({ drivers: { ...(withDrivers().drivers as DriversView), drivers: d } }));
    expect(checkMessage(m)).toEqual([]);
    expect(checkMessageBlocks(m.blocks)).toEqual([]);
    const cells = (tableOf(m) as TableBlock).rows.flat();
    for (const c of cells) {
      expect(c.text).not.toContain("\n");
      expect(c.text.length).toBeLessThanOrEqual(200);
    }
  });

  it("answers Why? in a thread with the table too, and no table when the digest is not native", () => {
    const m = driversReply(native());
    expect(m.blocks.map((b) => b.block_id ?? b.type)).toEqual([
      "context",
      BLOCK.digestDrivers,
      BLOCK.digestDriversTable,
      BLOCK.digestDriverGroups,
    ]);
    expect(m.text).toContain("by scanner: Semgrep +25 · Trivy +3");
    expect(tableOf(driversReply(withDrivers()))).toBeUndefined();
  });
});
