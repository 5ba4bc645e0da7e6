import { round1 } from "./scale.ts";
import { escapeXml, estimateWidth, fitText } from "./text.ts";
import { THEME } from "./theme.ts";

/** Title, subtitle and legend across the top of the chart. */

export interface LegendItem {
  label: string;
  color: string;
  /** Lines get a stroke swatch, faint lines a dashed one; the shaded bands get a filled box. */
  kind: "line" | "faint" | "band";
}

export interface Header {
  svg: string;
  /** First y below the header, where the plot may start. */
  bottom: number;
}

const SWATCH = 16;
const SWATCH_GAP = 6;
const ITEM_GAP = 16;
const MIN_TITLE_WIDTH = 200;

/** Lays out the header for a chart `width` wide. The legend sits top-right; titles are cut to fit beside it. */
export function buildHeader(
  width: number,
  title: string,
  subtitle: string | undefined,
  legend: LegendItem[],
): Header {
  const { pad, titleSize, subtitleSize, legendSize } = THEME;
  const labels = legend.map((item) => fitText(item.label, 120, legendSize));
  const itemWidths = labels.map((label) => SWATCH + SWATCH_GAP + estimateWidth(label, legendSize));
  const legendWidth = itemWidths.reduce((sum, w) => sum + w, 0) + ITEM_GAP * Math.max(0, legend.length - 1);
  // Beside the title when the whole title still fits (or at least its minimum room), else on rows
  // of its own below the subtitle: a legend should not cost the title its range.
  const room = width - 2 * pad - legendWidth - 24;
  const inline =
    room >= Math.min(width - 2 * pad, Math.max(MIN_TITLE_WIDTH, estimateWidth(title, titleSize, true)));
  const textWidth = inline ? width - 2 * pad - legendWidth - 24 : width - 2 * pad;
  const titleY = pad + titleSize - 2;
  const parts: string[] = [
    `<text x="${pad}" y="${titleY}" font-size="${titleSize}" font-weight="600" fill="${THEME.text}">${escapeXml(fitText(title, textWidth, titleSize, true))}</text>`,
  ];
  let bottom = titleY + 8;
  const sub = subtitle?.trim();
  if (sub) {
    const subY = titleY + subtitleSize + 8;
    parts.push(
      `<text x="${pad}" y="${subY}" font-size="${subtitleSize}" fill="${THEME.muted}">${escapeXml(fitText(sub, textWidth, subtitleSize))}</text>`,
    );
    bottom = subY + 6;
  }
  let x = inline ? round1(width - pad - legendWidth) : pad;
  let baseline = inline ? titleY - 2 : bottom + legendSize + 8;
  legend.forEach((item, i) => {
    const itemWidth = itemWidths[i] ?? 0;
    if (!inline && x > pad && x + itemWidth > width - pad) {
      x = pad;
      baseline += legendSize + 8;
    }
    parts.push(swatch(item, x, baseline - legendSize / 2 + 3));
    parts.push(
      `<text x="${round1(x + SWATCH + SWATCH_GAP)}" y="${baseline}" font-size="${legendSize}" fill="${THEME.text}">${escapeXml(labels[i] ?? "")}</text>`,
    );
    x = round1(x + itemWidth + ITEM_GAP);
  });
  if (!inline && legend.length > 0) bottom = baseline + 6;
  return { svg: parts.join(""), bottom };
}

function swatch(item: LegendItem, x: number, midY: number): string {
  if (item.kind === "band") {
    return `<rect x="${x}" y="${midY - 6}" width="${SWATCH}" height="12" rx="2" fill="${item.color}" stroke="${THEME.axis}" stroke-width="0.5"/>`;
  }
  if (item.kind === "faint") {
    return `<line x1="${x}" y1="${midY}" x2="${x + SWATCH}" y2="${midY}" stroke="${item.color}" stroke-width="2" stroke-dasharray="4 3"/>`;
  }
  return `<line x1="${x}" y1="${midY}" x2="${x + SWATCH}" y2="${midY}" stroke="${item.color}" stroke-width="3" stroke-linecap="round"/>`;
}
