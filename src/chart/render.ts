import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";
import { AppError } from "../errors.ts";
import { bundledFontFiles } from "./fonts.ts";
import { encodePng } from "./png.ts";
import { buildChartSvg } from "./svg.ts";
import { THEME } from "./theme.ts";
import type { ChartInput } from "./types.ts";

export interface ChartRendererOptions {
  /** Font files to use instead of the bundled Inter (tests, other scripts). */
  fontFiles?: string[];
  /** Pixel density: 2 gives a 1600×800 PNG for an 800×400 chart, sharper on high-DPI screens. Default 1. */
  scale?: number;
  /** zlib level 1..9 for the PNG. Default 3: about twice as fast as 6, for files about a third larger (~26 KB). */
  compression?: number;
}

export interface ChartRenderer {
  /** SVG → PNG bytes. Throws `AppError("chart_render")` if the SVG cannot be rendered. */
  render(input: ChartInput): Uint8Array;
}

/**
 * A renderer with its font paths and resvg options resolved once, to be kept and reused.
 * System fonts are never loaded: output must not depend on the host, and scanning them is slow.
 *
 * @example
 * const charts = createChartRenderer();
 * const png = charts.render({ title: "Last 30 days", series });
 */
export function createChartRenderer(opts: ChartRendererOptions = {}): ChartRenderer {
  const scale = opts.scale ?? 1;
  if (!(scale > 0 && scale <= 4)) throw new AppError("chart_render", `Chart scale ${scale} is outside 0..4.`);
  const compression = opts.compression ?? 3;
  if (!(Number.isInteger(compression) && compression >= 1 && compression <= 9)) {
    throw new AppError("chart_render", `PNG compression ${compression} is outside 1..9.`);
  }
  const options: ResvgRenderOptions = {
    font: {
      fontFiles: opts.fontFiles ?? bundledFontFiles(),
      loadSystemFonts: false,
      defaultFontFamily: THEME.fontFamily,
      sansSerifFamily: THEME.fontFamily,
    },
    fitTo: scale === 1 ? { mode: "original" } : { mode: "zoom", value: scale },
    shapeRendering: 2,
    textRendering: 1,
    logLevel: "off",
  };
  return {
    render(input) {
      const svg = buildChartSvg(input);
      try {
        const image = new Resvg(svg, options).render();
        return encodePng(image.pixels, image.width, image.height, compression);
      } catch (cause) {
        throw new AppError("chart_render", "The chart could not be rendered.", { cause });
      }
    },
  };
}

/**
 * One-off render with the bundled font. Building a renderer costs a cached module lookup and
 * an existsSync per font, so no module-level renderer is kept; hold one from
 * {@link createChartRenderer} where charts are rendered in a loop.
 */
export function renderChartPng(input: ChartInput): Uint8Array {
  return createChartRenderer().render(input);
}
