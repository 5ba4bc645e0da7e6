import { seededRandom } from "./hash.ts";

/** One injected misbehaviour of the GraphQL endpoint. */
export type Fault =
  | { kind: "latency"; ms: number }
  /** Any status, e.g. 500, 502, 503, also 400/403; default body: a JSON `errors` object. */
  | { kind: "status"; status: number; body?: string }
  /** 429 with a `Retry-After` header in seconds. */
  | { kind: "rate_limit"; retryAfterSeconds: number }
  /** Never answers, until the client gives up or the emulator closes. */
  | { kind: "hang" }
  /** 200 with a non-JSON or truncated body. */
  | { kind: "malformed"; body?: string }
  /** 200 with exactly this JSON, for tests of bad reply shapes. */
  | { kind: "reply"; body: unknown };

/** Background faults for load tests: probabilities 0..1 per request, except `latencyMs`. */
export interface FaultRates {
  /** Fixed delay added to every GraphQL request, in ms. */
  latencyMs?: number;
  /** Share of requests answered 503. */
  error5xx?: number;
  /** Share of requests that hang. */
  hang?: number;
  /** Share of requests answered 429 with `Retry-After: 1`. */
  rateLimit?: number;
}

/** What to do with one request: wait `delayMs`, then misbehave with `fault` or answer normally. */
export interface FaultDecision {
  delayMs: number;
  fault?: Fault;
}

/** The fault schedule of one emulator: a FIFO of injected faults, then the background rates. */
export interface FaultPlan {
  inject(fault: Fault, times?: number): void;
  setRates(rates: FaultRates): void;
  clear(): void;
  next(): FaultDecision;
}

/** A fault plan; `random` is seeded by default so a load test run can be repeated exactly. */
export function createFaultPlan(random: () => number = seededRandom(0x5eed)): FaultPlan {
  const queue: { fault: Fault; left: number }[] = [];
  let rates: FaultRates = {};

  function fromRates(): Fault | undefined {
    const roll = random();
    let edge = rates.hang ?? 0;
    if (roll < edge) return { kind: "hang" };
    edge += rates.error5xx ?? 0;
    if (roll < edge) return { kind: "status", status: 503 };
    edge += rates.rateLimit ?? 0;
    if (roll < edge) return { kind: "rate_limit", retryAfterSeconds: 1 };
    return undefined;
  }

  return {
    inject(fault, times = 1) {
      if (times >= 1) queue.push({ fault, left: Math.floor(times) });
    },
    setRates(next) {
      rates = { ...next };
    },
    clear() {
      queue.length = 0;
      rates = {};
    },
    next() {
      const head = queue[0];
      const base = rates.latencyMs ?? 0;
      if (head) {
        head.left--;
        if (head.left <= 0) queue.shift();
        // An injected latency fault delays the normal answer; other kinds replace it.
        if (head.fault.kind === "latency") return { delayMs: base + head.fault.ms };
        return { delayMs: base, fault: head.fault };
      }
      const fault = fromRates();
      return fault ? { delayMs: base, fault } : { delayMs: base };
    },
  };
}
