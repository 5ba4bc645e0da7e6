import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createMetrics } from "../../src/metrics.ts";

/**
 * The alert rules and the dashboard that ship under deploy/ name only metrics the app exports, and
 * the rules pass promtool's checks and their own unit tests (deploy/prometheus/alerts.test.yml).
 * promtool comes with Debian's `prometheus` package; CI installs it, and this file fails without it.
 */

const RULES = "deploy/prometheus/alerts.yml";
const RULE_TESTS = "deploy/prometheus/alerts.test.yml";
const DASHBOARD = "deploy/grafana/insights-digest.json";

/** Every series name the app's registry exposes: what each process registers, all options given. */
async function exportedNames(): Promise<Set<string>> {
  const metrics = createMetrics({
    queueDepth: async () => ({}),
    interactiveBacklog: async () => 0,
    oldestWaiting: async () => 0,
    failingWorkspaces: async () => 0,
    evictionPolicy: () => "noeviction",
  });
  const names = new Set<string>();
  for (const m of await metrics.registry.getMetricsAsJSON()) {
    names.add(m.name);
    const type = String(m.type);
    if (type === "histogram") for (const s of ["_bucket", "_sum", "_count"]) names.add(`${m.name}${s}`);
    if (type === "summary") for (const s of ["_sum", "_count"]) names.add(`${m.name}${s}`);
  }
  return names;
}

const KEYWORDS = new Set([
  "and",
  "or",
  "unless",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "offset",
  "inf",
  "nan",
]);

/**
 * The metric names a PromQL expression selects: identifiers left once strings, label matchers,
 * grouping lists, ranges and numbers are taken out, that are neither keywords nor function calls.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\[[^\]]*\]/g, " ");
  const names: string[] = [];
  for (const m of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const word = m[0];
    const after = bare.slice((m.index ?? 0) + word.length).trimStart();
    if (KEYWORDS.has(word.toLowerCase()) || after.startsWith("(")) continue;
    // A digit run's exponent or unit (1e3, 5m) is not a name.
    const before = bare[(m.index ?? 0) - 1] ?? " ";
    if (/[0-9.]/.test(before)) continue;
    names.push(word);
  }
  return names;
}

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
}

const ruleExprs = (): { name: string; expr: string }[] =>
  (parse(readFileSync(RULES, "utf8")) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) =>
    g.rules.map((r) => ({ name: r.alert ?? r.record ?? "?", expr: r.expr })),
  );

interface Panel {
  title?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

const dashboardExprs = (): { name: string; expr: string }[] => {
  const walk = (panels: Panel[]): { name: string; expr: string }[] =>
    panels.flatMap((p) => [
      ...(p.targets ?? []).flatMap((t) => (t.expr ? [{ name: p.title ?? "?", expr: t.expr }] : [])),
      ...walk(p.panels ?? []),
    ]);
  return walk((JSON.parse(readFileSync(DASHBOARD, "utf8")) as { panels: Panel[] }).panels);
};

const run = promisify(execFile);

async function promtool(...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run("promtool", args, { timeout: 60_000 });
    return `${stdout}${stderr}`;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === "ENOENT")
      throw new Error(
        "promtool is not installed: it comes with Debian's prometheus package (apt-get install -y --no-install-recommends prometheus)",
      );
    throw new Error(`promtool ${args.join(" ")} failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

describe("the metric names parser", () => {
  it("finds selected metrics and nothing else", () => {
    expect(
      metricNames(
        'sum by (le, method) (rate(a_seconds_bucket{le="300", x=~"y|z"}[5m])) / ignoring(x) b_total offset 1h > 1e3 and on() c == 0',
      ),
    ).toEqual(["a_seconds_bucket", "b_total", "c"]);
  });
});

describe("alert rules and dashboard", () => {
  it("every alert and every dashboard query names metrics the app registers", async () => {
    const names = await exportedNames();
    const used = [...ruleExprs(), ...dashboardExprs()];
    expect(used.length).toBeGreaterThan(20);
    const unknown = used.flatMap(({ name, expr }) =>
      metricNames(expr)
        .filter((m) => !names.has(m))
        .map((m) => `${name}: ${m}`),
    );
    expect(unknown).toEqual([]);
    // Each query selects at least one of the app's metrics (not a constant or a misspelt function).
    expect(used.filter(({ expr }) => metricNames(expr).length === 0)).toEqual([]);
  });

  it("follow Prometheus' naming: counters end in _total, durations in _seconds, no id labels", async () => {
    const metrics = createMetrics({
      defaultMetrics: false,
      queueDepth: async () => ({}),
      interactiveBacklog: async () => 0,
      oldestWaiting: async () => 0,
      failingWorkspaces: async () => 0,
      evictionPolicy: () => "noeviction",
    });
    const all = metrics.registry.getMetricsAsArray() as unknown as {
      name: string;
      labelNames: string[];
      constructor: { name: string };
    }[];
    expect(all.length).toBeGreaterThan(10);
    for (const m of all) {
      expect(m.name).toMatch(/^insights_[a-z0-9_]+$/);
      if (m.constructor.name === "Counter") expect(m.name).toMatch(/_total$/);
      if (m.constructor.name === "Histogram") expect(m.name).toMatch(/_seconds$/);
      expect(m.labelNames.filter((l) => /team|workspace|enterprise|user|channel|sub|id$/i.test(l))).toEqual(
        [],
      );
    }
  });

  it("promtool check rules: the rules are valid", async () => {
    const out = await promtool("check", "rules", RULES);
    expect(out).toMatch(/SUCCESS: \d+ rules found/);
  });

  it("promtool test rules: each alert fires on its series and stays quiet below its threshold", async () => {
    const out = await promtool("test", "rules", RULE_TESTS);
    expect(out).toContain("SUCCESS");
  });
});
