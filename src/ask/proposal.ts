import { z } from "zod";
import { LIMITS } from "../blockkit/limits.ts";
import { AppError } from "../errors.ts";
import { monthDayText, parseMonthDayText } from "../subscriptions/month-day.ts";
import { keptIdOf } from "./kept.ts";
import type { AskReading, AskSchedule } from "./types.ts";
import { knownZone } from "./zones.ts";

/**
 * A subscription or alert a question proposes. Nothing is created until the person confirms:
 * the proposal rides in the Confirm button (or, when it does not fit one, in a kept draft whose id
 * the button carries), and comes back as untrusted input.
 */
export interface Proposal {
  /**
   * What its Confirm is claimed by, so a proposal makes one subscription however often it is
   * pressed (proposals offered before ids were given have none; their message stands for them).
   */
  id?: string;
  /** Epoch seconds after which it is no longer set up (see PROPOSAL_DAYS). */
  until?: number;
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

/** How long a proposal can be confirmed after it is offered: ask again after that. */
export const PROPOSAL_DAYS = 30;

/** The proposal as offered in an answer: with its id and the time it can be confirmed until. */
export function offered(p: Proposal, id: string, now: Date): Proposal {
  return { ...p, id, until: Math.floor(now.getTime() / 1000) + PROPOSAL_DAYS * 86_400 };
}

const day = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
const id = z.string().min(1).max(75);
const wire = z.object({
  i: z
    .string()
    .regex(/^[a-f0-9]{32}$/)
    .optional(),
  u: z.number().int().positive().optional(),
  m: z.enum(["digest", "alert"]),
  f: z.enum(["hourly", "daily", "weekdays", "weekly", "monthly", "quarterly"]),
  d: z.array(day).max(7),
  // The day of a monthly or quarterly schedule, as the subscription stores it (`1`, `first-mon`, `last-workday`).
  o: z
    .string()
    .max(20)
    .refine((t) => parseMonthDayText(t) !== null)
    .optional(),
  t: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  r: z.string().regex(/^[A-Za-z0-9.-]{1,40}$/),
  // More than a subscription takes (its own check says so when confirmed): a question's names, whole.
  a: z.array(id).max(100),
  g: z.array(z.string().min(1).max(100)).max(50),
  s: z.array(id).max(100),
  c: z.string().max(200).optional(),
  // The zone said with the time; checked against the runtime's zones when read back.
  z: z
    .string()
    .max(64)
    .regex(/^[A-Za-z]+(\/[A-Za-z0-9_+-]+){0,2}$/)
    .refine(knownZone)
    .optional(),
});

/**
 * The button's value, or, when the proposal does not fit one (Slack holds 2,000 characters), the
 * text to keep in a draft whose id the button carries instead (see kept.ts).
 */
export function encodeProposal(p: Proposal): { value: string } | { keep: string } {
  const text = JSON.stringify({
    ...(p.id ? { i: p.id } : {}),
    ...(p.until ? { u: p.until } : {}),
    m: p.mode,
    f: p.schedule.frequency,
    d: p.schedule.days,
    ...(p.schedule.on ? { o: monthDayText(p.schedule.on) } : {}),
    t: p.schedule.time,
    r: p.range,
    a: p.assetIds,
    g: p.groups,
    s: p.scannerIds,
    ...(p.condition ? { c: p.condition } : {}),
    ...(p.schedule.tz ? { z: p.schedule.tz } : {}),
  });
  return text.length <= LIMITS.buttonValue ? { value: text } : { keep: text };
}

/** What a proposal's button carried: the proposal, or the id of the draft that keeps it. */
export type ProposalCarried = { kind: "proposal"; proposal: Proposal } | { kind: "kept"; id: string };

function parse(raw: unknown, max: number): unknown {
  try {
    return JSON.parse(typeof raw === "string" && raw.length <= max ? raw : "");
  } catch (cause) {
    throw new AppError("bad_state", "This button carries no subscription to set up.", { cause });
  }
}

function proposalFrom(parsed: unknown): Proposal {
  const v = wire.safeParse(parsed);
  const calendar = v.success && (v.data.f === "monthly" || v.data.f === "quarterly");
  // A monthly or quarterly schedule carries its day, and no other schedule carries one.
  if (!v.success || calendar !== (v.data.o !== undefined))
    throw new AppError("bad_state", "This button carries a subscription that is not valid.");
  const d = v.data;
  const on = d.o === undefined ? null : parseMonthDayText(d.o);
  return {
    ...(d.i ? { id: d.i } : {}),
    ...(d.u ? { until: d.u } : {}),
    mode: d.m,
    schedule: { frequency: d.f, days: d.d, ...(on ? { on } : {}), time: d.t, ...(d.z ? { tz: d.z } : {}) },
    range: d.r,
    assetIds: d.a,
    groups: d.g,
    scannerIds: d.s,
    ...(d.c ? { condition: d.c } : {}),
  };
}

export function decodeProposal(raw: unknown): ProposalCarried {
  const parsed = parse(raw, LIMITS.buttonValue);
  const id = keptIdOf(parsed);
  return id ? { kind: "kept", id } : { kind: "proposal", proposal: proposalFrom(parsed) };
}

/** The proposal a kept draft holds (as untrusted as a button's value). */
export function keptProposal(text: string): Proposal {
  return proposalFrom(parse(text, 40_000));
}
