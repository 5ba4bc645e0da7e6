import fc from "fast-check";
import type { Fault } from "../../sandbox/analytics/index.ts";

/** Generators of hostile input for the bad-input section, seeded so every run sends the same things. */

const words = fc.constantFrom(
  "last7d",
  "last0d",
  "last365d",
  "last366d",
  "thisweek",
  "lastweek",
  "thismonth",
  "lastmonth",
  "help",
  "status",
  "2026-11-01..2026-11-15",
  "2026-02-30",
  "2026-11-15..2026-11-01",
  "1999-12-31",
  "asset:",
  'asset:"payments / api"',
  "asset:“x”",
  'asset:"',
  "scanner:sast",
  "scanner:",
  "scanner:nope",
  "subscribe",
  "subscriptions",
  "pause",
  "send",
  "unsubscribe",
  "resume",
  "connect",
  "disconnect",
  "<@U123>",
  "<!channel>",
  "&amp;",
  "*bold*",
  "🔥",
  "lst7d",
  "LAST7D",
  "\u0000",
  "\u202e",
  "%",
  "..",
  "-1",
  "1e309",
);

/** Slash texts: grammar words in random order, random Unicode, and mixes of both (up to 2,000 chars). */
export function fuzzTexts(n: number, seed = 4242): string[] {
  const text = fc.oneof(
    fc.array(words, { maxLength: 6 }).map((w) => w.join(" ")),
    fc.string({ unit: "grapheme", maxLength: 120 }),
    fc.string({ unit: "binary", maxLength: 2_000 }),
    fc.array(fc.oneof(words, fc.string({ maxLength: 12 })), { maxLength: 8 }).map((w) => w.join(" ")),
  );
  return fc.sample(text, { numRuns: n, seed });
}

const day = (i: number) => `2026-10-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00`;
const num = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constant(-1),
  fc.constant(2 ** 60),
  fc.string({ maxLength: 5 }),
  fc.constant(null),
);
const entry = fc.record(
  {
    timeStamp: fc.oneof(fc.nat(40).map(day), fc.string({ maxLength: 24 }), fc.constant(null)),
    findings: num,
    violations: num,
  },
  { requiredKeys: [] },
);
const activity = fc.record(
  { timeStamp: fc.nat(40).map(day), fixedViolations: num, mergedViolations: num, extra: fc.anything() },
  { requiredKeys: [] },
);
const period = fc.record({ previous: num, current: num }, { requiredKeys: [] });
const insights = fc.record(
  {
    dailyMetric: fc.oneof(fc.array(entry, { maxLength: 40 }), fc.anything()),
    dailyActivity: fc.oneof(fc.array(activity, { maxLength: 40 }), fc.anything()),
    summary: fc.oneof(
      fc.record(
        { findings: period, violations: period, fixes: num, mergedViolations: num },
        { requiredKeys: [] },
      ),
      fc.anything(),
    ),
    filters: fc.oneof(
      fc.constant(null),
      fc.anything(),
      fc.record({
        scannerId: fc.array(fc.record({ value: fc.string(), displayValue: fc.anything() })),
        assetId: fc.anything(),
      }),
    ),
  },
  { requiredKeys: [] },
);

/**
 * Analytics replies off the contract, as emulator faults: near-miss shapes of the insights reply
 * (wrong types, negative or huge counts, bad or missing days), GraphQL error lists, random JSON, and
 * bodies that are not JSON at all.
 */
export function malformedReplies(n: number, seed = 9090): Fault[] {
  const fault: fc.Arbitrary<Fault> = fc.oneof(
    {
      weight: 4,
      arbitrary: insights.map((i): Fault => ({ kind: "reply", body: { data: { insights: i } } })),
    },
    { weight: 1, arbitrary: fc.anything().map((body): Fault => ({ kind: "reply", body: body ?? null })) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.record({ message: fc.anything(), path: fc.anything() }, { requiredKeys: [] }), {
          maxLength: 3,
        })
        .map((errors): Fault => ({ kind: "reply", body: { errors, data: null } })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.string({ maxLength: 200 }),
          fc.constant("<html>502 Bad Gateway</html>"),
          fc.constant(""),
          fc.constant('{"data":{"insights":'),
        )
        .map((body): Fault => ({ kind: "malformed", body })),
    },
  );
  return fc.sample(fault, { numRuns: n, seed });
}

/** n distinct explicit ranges (so no reply is shared from the cache): `YYYY-MM-DD..YYYY-MM-DD`, all in the past. */
export function distinctRanges(n: number, start = "2024-01-01"): string[] {
  const base = Date.parse(`${start}T00:00:00Z`);
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return Array.from({ length: n }, (_, i) => {
    const from = base + i * 86_400_000;
    return `${iso(from)}..${iso(from + (i % 9) * 86_400_000)}`;
  });
}
