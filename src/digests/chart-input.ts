import type { ChartInput } from "../chart/types.ts";
import type { DigestView } from "../insights/types.ts";

/** The chart of a digest: its daily series, titled with the range and the active filters. */
export function chartInputFor(view: DigestView): ChartInput {
  const { digest, filters } = view;
  const names = (ids: string[], list: { value: string; displayValue: string }[] | null) =>
    ids.map((id) => list?.find((o) => o.value === id)?.displayValue ?? id);
  const scope = [
    ...names(filters.selectedAssetIds, filters.assets),
    ...names(filters.selectedScannerIds, filters.scanners),
  ];
  return {
    series: digest.series,
    title: `Daily trend · ${digest.range.label}`,
    subtitle: scope.length > 0 ? scope.join(", ") : "All assets and scanners",
  };
}
