import { renderChartPng } from "../../src/chart/render.ts";
import { chartInputFor } from "../../src/digests/chart-input.ts";
import { explainDigest } from "../../src/digests/explain.ts";
import { topDriver } from "../../src/insights/drivers.ts";
import { SCENARIO_KEYS, SCENARIOS, type ScenarioKind } from "../analytics/index.ts";
import type { Stack } from "../stack.ts";
import type { createDemoOutput } from "./output.ts";

type Output = ReturnType<typeof createDemoOutput>;

/** The three emulator scenarios, each in a workspace of its own connected to the scenario's key. */
const PLAYED: { kind: ScenarioKind; teamId: string; title: string }[] = [
  { kind: "regression", teamId: "T0SCENREG", title: "a regression in one asset group" },
  { kind: "newScanner", teamId: "T0SCENNEW", title: "a scanner rolled out mid-range" },
  { kind: "outage", teamId: "T0SCENOUT", title: "a scanner that stopped sending data" },
];

/**
 * Why the numbers moved, on the three accounts the emulator plants a change in: the answer the
 * digest's Why? button gives (`explainDigest`, the use case its listener calls), the top driver it
 * names against the one planted, the data-gap notice, and the chart with the previous period.
 */
export async function playScenarios(stack: Stack, out: Output, firstStep: number): Promise<number> {
  const { digests, apiKeys } = stack.web.deps;
  let step = firstStep;
  for (const s of PLAYED) {
    const key = SCENARIO_KEYS[s.kind];
    const ref = { teamId: s.teamId };
    out.step(`${step}. Why? on \`/insights last7d\` for ${s.title} (emulator key \`${key}\`)`);
    await apiKeys.save(ref, key, { savedBy: "U0DEMO", savedAt: stack.clock().toISOString() });
    const now = stack.clock();
    const state = { range: "last7d", assetIds: [], scannerIds: [] };
    const message = await explainDigest(digests, { ref, state, tz: "UTC", now });
    out.message(`Why? answered in place (${s.kind})`, message);
    const { view } = await digests.build({ ref, range: "last7d", tz: "UTC", now, drivers: "required" });
    const planted = SCENARIOS[s.kind].target;
    const drivers = view.drivers?.drivers;
    const top = drivers ? topDriver(drivers, s.kind === "newScanner" ? "findings" : "violations") : null;
    out.note(
      `Planted: ${planted.dimension} ${planted.key}; top driver named: ${top ? `${top.dimension} ${top.key} (${top.change > 0 ? "+" : ""}${top.change})` : "none"}.`,
    );
    const gaps = view.drivers?.gaps ?? [];
    out.note(
      gaps.length > 0
        ? `Data gaps: ${gaps.map((g) => `${g.label} since ${g.from}`).join("; ")}.`
        : "Data gaps: none.",
    );
    const chart = out.file(`scenario-${s.kind}-last7d.png`, renderChartPng(chartInputFor(view)));
    out.note(`Chart with the previous period as faint lines: ${chart}`);
    step++;
  }
  return step - firstStep;
}
