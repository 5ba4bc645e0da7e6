/**
 * Links to the platform's web app that unfurl as a digest, and what each asks for. Pure.
 *
 * Recognised, on the host of the platform URL (and under its path, if it has one):
 * - `/dashboard` and `/insights`: every asset and scanner;
 * - `/assets/<asset>` and `/scanners/<scanner>`: narrowed to that asset or scanner (name or id);
 * - query `range=` (`last30d`, `thisweek`, `2026-11-01..2026-11-15`, … as in `/insights`), or
 *   `from=YYYY-MM-DD&to=YYYY-MM-DD`; without either, the last 7 days;
 * - query `asset=` / `scanner=` (repeatable, or comma-separated): more filters by name or id.
 * Any other path, and any other host, is not ours to unfurl.
 */
export interface DashboardLink {
  range: string;
  assetNames: string[];
  scannerNames: string[];
}

const LINK_DEFAULT_RANGE = "last7d";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function list(params: URLSearchParams, ...names: string[]): string[] {
  return names.flatMap((n) =>
    params
      .getAll(n)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean),
  );
}

function decode(segment: string): string | undefined {
  try {
    const v = decodeURIComponent(segment).trim();
    return v === "" ? undefined : v;
  } catch {
    return undefined;
  }
}

/** What `url` asks for, or null when it is not a dashboard link of the platform at `platformUrl`. */
export function parseDashboardLink(url: string, platformUrl: string): DashboardLink | null {
  let link: URL;
  let base: URL;
  try {
    link = new URL(url);
    base = new URL(platformUrl);
  } catch {
    return null;
  }
  if (link.protocol !== "https:" && link.protocol !== "http:") return null;
  if (link.host.toLowerCase() !== base.host.toLowerCase()) return null;
  const basePath = base.pathname.replace(/\/+$/, "");
  if (basePath !== "" && !link.pathname.startsWith(`${basePath}/`)) return null;
  const parts = link.pathname.slice(basePath.length).split("/").filter(Boolean);
  const q = link.searchParams;
  const assets = list(q, "asset", "assets");
  const scanners = list(q, "scanner", "scanners");
  const [page, subject, ...rest] = parts;
  if (rest.length > 0 || page === undefined) return null;
  if (page === "dashboard" || page === "insights") {
    if (subject !== undefined) return null;
  } else if (page === "assets" || page === "scanners") {
    const name = subject === undefined ? undefined : decode(subject);
    if (!name) return null;
    (page === "assets" ? assets : scanners).unshift(name);
  } else return null;
  const from = q.get("from") ?? "";
  const to = q.get("to") ?? "";
  const range =
    q.get("range")?.trim() || (DAY.test(from) && DAY.test(to) ? `${from}..${to}` : LINK_DEFAULT_RANGE);
  return { range, assetNames: [...new Set(assets)], scannerNames: [...new Set(scanners)] };
}
