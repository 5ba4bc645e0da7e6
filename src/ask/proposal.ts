import { z } from "zod";
import { AppError } from "../errors.ts";
import type { AskReading, AskSchedule } from "./types.ts";
import { knownZone } from "./zones.ts";

/**
 * A subscription or alert a question proposes. Nothing is created until the person confirms:
 * the proposal rides in the Confirm button, and comes back as untrusted input.
 */
export interface Proposal {
  mode: "digest" | "alert";
  schedule: AskSchedule;
  /** The slash command's range form (rolling: `last7d`, `lastweek`…). */
  range: string;
  assetIds: string[];
  /** Asset groups, resolved to their assets when the person confirms. */
  groups: string[];
  scannerIds: string[];
  /** Canonical condition (`when violations > 500`). */
  condition?: string;
}

export function proposalOf(r: AskReading): Proposal {
  if (!r.schedule) throw new AppError("bad_state", "This reading proposes no schedule.");
  return {
    mode: r.intent === "alert" ? "alert" : "digest",
    schedule: r.schedule,
    range: r.range.spec,
    assetIds: r.subjects.assets.map((a) => a.value),
    groups: r.subjects.groups,
    scannerIds: r.subjects.scanners.map((s) => s.value),
    ...(r.condition ? { condition: r.condition } : {}),
  };
}

const day = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
const id = z.string().min(1).max(75);
const wire = z.object({
  m: z.enum(["digest", "alert"]),
  f: z.enum(["hourly", "daily", "weekly"]),
  d: z.array(day).max(7),
  t: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  r: z.string().regex(/^[A-Za-z0-9.-]{1,40}$/),
  a: z.array(id).max(40),
  g: z.array(z.string().min(1).max(100)).max(20),
  s: z.array(id).max(20),
  c: z.string().max(200).optional(),
  // The zone said with the time; checked against the runtime's zones when read back.
  z: z
    .string()
    .max(64)
    .regex(/^[A-Za-z]+(\/[A-Za-z0-9_+-]+){0,2}$/)
    .refine(knownZone)
    .optional(),
});

const MAX_VALUE = 2_000;

/** The button value, or undefined when the filters do not fit one (then the answer says to use the command). */
export function encodeProposal(p: Proposal): string | undefined {
  const text = JSON.stringify({
    m: p.mode,
    f: p.schedule.frequency,
    d: p.schedule.days,
    t: p.schedule.time,
    r: p.range,
    a: p.assetIds,
    g: p.groups,
    s: p.scannerIds,
    ...(p.condition ? { c: p.condition } : {}),
    ...(p.schedule.tz ? { z: p.schedule.tz } : {}),
  });
  return text.length <= MAX_VALUE && wire.safeParse(JSON.parse(text)).success ? text : undefined;
}

export function decodeProposal(raw: unknown): Proposal {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof raw === "string" && raw.length <= MAX_VALUE ? raw : "");
  } catch (cause) {
    throw new AppError("bad_state", "This button carries no subscription to set up.", { cause });
  }
  const v = wire.safeParse(parsed);
  if (!v.success) throw new AppError("bad_state", "This button carries a subscription that is not valid.");
  const d = v.data;
  return {
    mode: d.m,
    schedule: { frequency: d.f, days: d.d, time: d.t, ...(d.z ? { tz: d.z } : {}) },
    range: d.r,
    assetIds: d.a,
    groups: d.g,
    scannerIds: d.s,
    ...(d.c ? { condition: d.c } : {}),
  };
}
