/**
 * Names of the emulator's accounts. The two built-in accounts have hand-written, realistic
 * catalogues (the demo and screenshots show them); extra accounts get generated ones.
 */

/** Scanner ids with display names and how noisy each kind of scanner is relative to SAST. */
export const SCANNER_CATALOGUE: readonly { id: string; name: string; weight: number }[] = [
  { id: "sast", name: "SAST", weight: 1 },
  { id: "sca", name: "SCA (dependencies)", weight: 1.5 },
  { id: "secrets", name: "Secrets", weight: 0.2 },
  { id: "iac", name: "IaC", weight: 0.6 },
  { id: "container", name: "Container images", weight: 0.9 },
  { id: "dast", name: "DAST", weight: 0.4 },
  { id: "license", name: "License compliance", weight: 0.3 },
  { id: "malware", name: "Malicious packages", weight: 0.1 },
];

/** The demo account: a fintech-ish estate, mostly `parent / child`, a few top-level assets. */
export const DEMO_ASSETS: readonly string[] = [
  "payments / api",
  "payments / web",
  "payments / ledger",
  "payments / fraud-engine",
  "payments / checkout-worker",
  "platform / auth-service",
  "platform / gateway",
  "platform / config-service",
  "platform / feature-flags",
  "platform / notifications",
  "platform / observability",
  "mobile / ios-app",
  "mobile / android-app",
  "mobile / shared-components",
  "data / etl-pipeline",
  "data / warehouse-dbt",
  "data / ml-features",
  "infra / terraform-live",
  "infra / k8s-manifests",
  "infra / helm-charts",
  "search / indexer",
  "search / query-api",
  "identity / sso-bridge",
  "identity / user-profile",
  "identity / scim-sync",
  "billing / invoicing",
  "billing / tax-service",
  "billing / subscriptions",
  "growth / landing-pages",
  "growth / experiments-api",
  "support / helpdesk-integrations",
  "support / status-page",
  "marketing-site",
  "docs",
  "design-system",
];
export const DEMO_SCANNERS: readonly string[] = ["sast", "sca", "secrets", "iac", "container"];

/** The second built-in account: another company, other parents, other scanners. */
export const SECOND_ASSETS: readonly string[] = [
  "logistics / tracking-api",
  "logistics / route-planner",
  "logistics / driver-app",
  "warehouse / inventory-service",
  "warehouse / picking-ui",
  "warehouse / scanner-firmware",
  "storefront / web",
  "storefront / cart-service",
  "storefront / search",
  "corporate / intranet",
  "corporate / hr-portal",
  "edge-cdn-config",
];
export const SECOND_SCANNERS: readonly string[] = ["sast", "sca", "secrets", "dast"];

const PARENTS = [
  "accounts",
  "analytics",
  "api",
  "backoffice",
  "billing",
  "catalog",
  "checkout",
  "core",
  "crm",
  "data",
  "devtools",
  "edge",
  "identity",
  "infra",
  "mobile",
  "orders",
  "partners",
  "platform",
  "reporting",
  "risk",
  "search",
  "shipping",
  "support",
  "web",
];
const CHILDREN = [
  "admin-ui",
  "api",
  "auth",
  "batch-jobs",
  "cache",
  "cli",
  "consumer",
  "cron",
  "dashboard",
  "db-migrations",
  "docs",
  "events",
  "exporter",
  "frontend",
  "gateway",
  "graphql",
  "importer",
  "ingest",
  "jobs",
  "ledger",
  "mailer",
  "monitor",
  "notifier",
  "pdf-renderer",
  "portal",
  "proxy",
  "queue-worker",
  "scheduler",
  "sdk",
  "service",
  "sync",
  "terraform",
  "uploader",
  "webhooks",
  "worker",
];

/**
 * `count` distinct `parent / child` names, picked by `pick` (a deterministic index source).
 * Collisions get a numeric suffix so names stay unique at any size.
 */
export function generatedAssetNames(count: number, pick: (i: number, salt: number) => number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parent = PARENTS[pick(i, 1) % PARENTS.length];
    const child = CHILDREN[pick(i, 2) % CHILDREN.length];
    let name = `${parent} / ${child}`;
    for (let n = 2; seen.has(name); n++) name = `${parent} / ${child}-${n}`;
    seen.add(name);
    out.push(name);
  }
  return out;
}
