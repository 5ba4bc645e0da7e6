import type { ChartInput } from "../chart/types.ts";
import type { DigestView } from "../insights/types.ts";

/** The chart's data of a digest: its days, the previous period beneath them, and the partial day. */
function dataOf(view: DigestView): Pick<ChartInput, "series" | "previous" | "partialFrom"> {
  return {
    series: view.digest.series,
    ...(view.previousSeries ? { previous: view.previousSeries } : {}),
    partialFrom: view.digest.completeness?.partialFrom ?? null,
  };
}

/** The chart of a digest: its daily series, titled with the range and the active filters. */
export function chartInputFor(view: DigestView): ChartInput {
  const { digest, filters } = view;
  const names = (ids: string[], list: { value: string; displayValue: string }[] | null) =>
    ids.map((id) => list?.find((o) => o.value === id)?.displayValue ?? id);
  const scope = [
    ...(filters.selectedGroups ?? []).map((g) => `${g}/*`),
    ...names(filters.selectedAssetIds, filters.assets),
    ...names(filters.selectedScannerIds, filters.scanners),
  ];
  return {
    ...dataOf(view),
    title: `Daily trend · ${digest.range.label}`,
    subtitle: scope.length > 0 ? scope.join(", ") : "All assets and scanners",
  };
}

/** A scheduled digest's chart: the subscription's filter names as the subtitle. */
export function scheduledChartInput(view: DigestView, filterLabels: readonly string[]): ChartInput {
  return {
    ...dataOf(view),
    title: `Daily trend · ${view.digest.range.label}`,
    subtitle: filterLabels.length > 0 ? filterLabels.join(", ").slice(0, 120) : undefined,
  };
}
