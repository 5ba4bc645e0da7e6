import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { AppError } from "../errors.ts";

/**
 * The Inter TTFs shipped in an npm package, so the chart looks the same on a host with no fonts
 * installed. Resolved through the module system rather than a path relative to this file, which
 * differs between src/ (tsx) and dist/.
 */
const FONT_FILES = [
  "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf",
  "@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf",
] as const;

/** Absolute paths of the bundled fonts; throws `AppError("chart_font")` when the package is missing. */
export function bundledFontFiles(): string[] {
  const require = createRequire(import.meta.url);
  return FONT_FILES.map((specifier) => {
    try {
      const path = require.resolve(specifier);
      if (existsSync(path)) return path;
    } catch (cause) {
      throw new AppError("chart_font", `Chart font ${specifier} is not installed.`, { cause });
    }
    throw new AppError("chart_font", `Chart font ${specifier} is not installed.`);
  });
}
