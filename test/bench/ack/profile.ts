import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { round } from "../stats.ts";

/**
 * Where a process's CPU went, from the `.cpuprofile` Node writes with `--cpu-prof`: self time per
 * function (top frames) and per place (our code by directory, each package, Node's internals), idle
 * time left out. Read it as "of the time this process was busy, x % was here".
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Frame {
  name: string;
  where: string;
  selfMs: number;
  pct: number;
}

export interface ProfileSummary {
  file: string;
  busyMs: number;
  wallMs: number;
  top: Frame[];
  /** Self time by place: `src/slack/frame`, `bullmq`, `pino`, `node:internal`, `(garbage collector)`… */
  places: { place: string; selfMs: number; pct: number }[];
  /**
   * The same, with the time of Node's internals and native code (socket and file writes, crypto,
   * JSON) charged to the nearest caller in a package or in our code: who asked for that work.
   */
  owners: { place: string; selfMs: number; pct: number }[];
}

const OWNERLESS = new Set(["(native)", "node:internal", "(anonymous)"]);

const IDLE = new Set(["(idle)", "(program)"]);

/** `src/slack/frame/dispatch.ts` → `src/slack/frame`; `…/node_modules/@slack/bolt/…` → `@slack/bolt`. */
export function placeOf(url: string, name: string): string {
  if (name.startsWith("(")) return name;
  if (url === "") return "(native)";
  if (url.startsWith("node:")) return "node:internal";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? "?");
  }
  const at = url.search(/\/(src|commands|templates|sandbox|test)\//);
  if (at < 0) return url;
  const parts = url.slice(at + 1).split("/");
  return parts.slice(0, Math.min(parts.length - 1, 3)).join("/");
}

export function where(url: string, line: number): string {
  const nm = url.lastIndexOf("node_modules/");
  const short =
    nm >= 0 ? url.slice(nm + "node_modules/".length) : url.replace(/^.*\/(src|commands|templates)\//, "$1/");
  return short ? `${short.replace(/^file:\/\//, "")}:${line + 1}` : "";
}

export function summarizeProfile(file: string, topN = 25): ProfileSummary {
  return summarizeCpuProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, file, topN);
}

/** The same for a profile object (from the DevTools protocol, see inspect.ts). */
export function summarizeCpuProfile(profile: unknown, file: string, topN = 25): ProfileSummary {
  const p = profile as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ownerOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n) break;
      const place = placeOf(n.callFrame.url, n.callFrame.functionName || "(anonymous)");
      if (place === "(garbage collector)") return place;
      if (!OWNERLESS.has(place) && n.callFrame.url !== "") return place;
    }
    return "(root)";
  };
  const frames = new Map<string, Frame>();
  const places = new Map<string, number>();
  const owners = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const name = n.callFrame.functionName || "(anonymous)";
    if (IDLE.has(name)) continue;
    busyUs += us;
    const w = where(n.callFrame.url, n.callFrame.lineNumber);
    const key = `${name}@${w}`;
    const f = frames.get(key) ?? { name, where: w, selfMs: 0, pct: 0 };
    f.selfMs += us / 1000;
    frames.set(key, f);
    const place = placeOf(n.callFrame.url, name);
    places.set(place, (places.get(place) ?? 0) + us / 1000);
    const owner = ownerOf(id);
    owners.set(owner, (owners.get(owner) ?? 0) + us / 1000);
  }
  const busyMs = busyUs / 1000;
  const pct = (ms: number) => round((ms / Math.max(busyMs, 0.001)) * 100, 1);
  return {
    file,
    busyMs: round(busyMs, 0),
    wallMs: round((p.endTime - p.startTime) / 1000, 0),
    top: [...frames.values()]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, topN)
      .map((f) => ({ ...f, selfMs: round(f.selfMs, 1), pct: pct(f.selfMs) })),
    places: byShare(places, topN, pct),
    owners: byShare(owners, topN, pct),
  };
}

/** One function's self time per unit of work in two profiles, and what the second adds. */
export interface SelfRow {
  fn: string;
  base: number;
  ms: number;
  added: number;
}

/**
 * Self time per function per unit of work (a digest, a request) in `summary`, against `base` (say a
 * plain digest's profile against one with drivers): what the second spends that the first does not,
 * the most first. Idle time is left out of both.
 */
export function compareSelf(
  base: { summary: ProfileSummary; units: number },
  other: { summary: ProfileSummary; units: number },
): { busy: { base: number; ms: number }; rows: SelfRow[] } {
  const rows = new Map<string, SelfRow>();
  const add = (s: ProfileSummary, units: number, field: "base" | "ms") => {
    for (const f of s.top) {
      const fn = `${f.name}@${f.where}`;
      const row = rows.get(fn) ?? { fn, base: 0, ms: 0, added: 0 };
      row[field] += f.selfMs / units;
      rows.set(fn, row);
    }
  };
  add(base.summary, base.units, "base");
  add(other.summary, other.units, "ms");
  for (const r of rows.values()) r.added = r.ms - r.base;
  return {
    busy: { base: base.summary.busyMs / base.units, ms: other.summary.busyMs / other.units },
    rows: [...rows.values()].sort((a, b) => b.added - a.added),
  };
}

/**
 * Inclusive time per function (its own and its callees'), for functions whose `name@where` matches
 * `pattern`: what a code path costs in all, where self time scatters it over its leaves. A function
 * on the stack twice (recursion) counts once per sample. Idle time left out.
 */
export function inclusiveByFunction(
  file: string,
  pattern: RegExp,
): { busyMs: number; rows: { fn: string; ms: number }[] } {
  const p = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"}@${where(n.callFrame.url, n.callFrame.lineNumber)}`;
  const total = new Map<string, number>();
  let busyUs = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const leaf = byId.get(p.samples[i] as number);
    if (!leaf || IDLE.has(leaf.callFrame.functionName)) continue;
    const us = p.timeDeltas[i] ?? 0;
    busyUs += us;
    const seen = new Set<string>();
    for (let at: number | undefined = leaf.id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n) break;
      const fn = nameOf(n);
      if (seen.has(fn) || !pattern.test(fn)) continue;
      seen.add(fn);
      total.set(fn, (total.get(fn) ?? 0) + us);
    }
  }
  return {
    busyMs: round(busyUs / 1000, 0),
    rows: [...total].sort((a, b) => b[1] - a[1]).map(([fn, us]) => ({ fn, ms: us / 1000 })),
  };
}

function byShare(m: Map<string, number>, topN: number, pct: (ms: number) => number) {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topN)
    .map(([place, ms]) => ({ place, selfMs: round(ms, 1), pct: pct(ms) }));
}

/** Every profile in `dir` (one per process: a cluster's primary and each worker). */
export function summarizeDir(dir: string, topN = 25): ProfileSummary[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => summarizeProfile(join(dir, f), topN))
    .sort((a, b) => b.busyMs - a.busyMs);
}

/** A summary as Markdown lines (top frames, then places). */
export function profileMarkdown(title: string, s: ProfileSummary, topN = 15): string {
  const lines = [
    `#### ${title}`,
    "",
    `${s.busyMs} ms busy of ${s.wallMs} ms (idle left out).`,
    "",
    "| self % | self ms | function | where |",
    "|---:|---:|---|---|",
    ...s.top.slice(0, topN).map((f) => `| ${f.pct} | ${f.selfMs} | \`${f.name}\` | ${f.where} |`),
    "",
    "| self % | place | charged to its caller % | caller |",
    "|---:|---|---:|---|",
    ...s.places
      .slice(0, topN)
      .map((p, i) => `| ${p.pct} | ${p.place} | ${s.owners[i]?.pct ?? ""} | ${s.owners[i]?.place ?? ""} |`),
  ];
  return lines.join("\n");
}

/** One window of a profile's timeline: how much of it the process was busy, and how much of that was GC. */
export interface BusyWindow {
  /** The window's start, ms on the profiles' shared monotonic clock. */
  fromMs: number;
  busyPct: number;
  gcPct: number;
}

/**
 * A profile's busy and GC share per `windowMs`, windows aligned on absolute multiples of it, so
 * the timelines of processes profiled at the same time (their `startTime`s share one clock) line
 * up row by row. `(idle)` and `(program)` are not busy.
 */
export function busyTimeline(profile: unknown, windowMs: number): BusyWindow[] {
  const p = profile as CpuProfile;
  const names = new Map(p.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const width = windowMs * 1000;
  const byWindow = new Map<number, { total: number; busy: number; gc: number }>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const d = p.timeDeltas[i] ?? 0;
    t += d;
    const w = Math.floor(t / width);
    const acc = byWindow.get(w) ?? { total: 0, busy: 0, gc: 0 };
    const name = names.get(p.samples[i] as number) ?? "";
    acc.total += d;
    if (!IDLE.has(name)) acc.busy += d;
    if (name === "(garbage collector)") acc.gc += d;
    byWindow.set(w, acc);
  }
  const pct = (n: number, of: number) => (of > 0 ? Math.round((1000 * n) / of) / 10 : 0);
  return [...byWindow]
    .sort((a, b) => a[0] - b[0])
    .map(([w, a]) => ({ fromMs: w * windowMs, busyPct: pct(a.busy, a.total), gcPct: pct(a.gc, a.total) }));
}
