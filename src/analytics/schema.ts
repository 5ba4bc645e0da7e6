import { z } from "zod";
import { AnalyticsError } from "./analytics-errors.ts";
import { dayStart } from "./day-stamps.ts";
import { readInsights, readSlices } from "./reply-reader.ts";
import type { AnalyticsIntrospection, InsightsResult, SliceSeries } from "./types.ts";

/*
 * Replies are untrusted input. z.object strips unknown keys (accepted, not kept) and never cares
 * about key order; anything else off-contract becomes `bad_response`, never a crash downstream.
 * Insights and slices replies are read by reply-reader.ts first (the same rules, without zod's cost);
 * the schemas here judge whatever it does not take, and say what is wrong.
 */

const count = z.int().nonnegative();

const timeStamp = z.string().transform((s, ctx) => {
  const normal = dayStart(s);
  if (normal === null) {
    ctx.issues.push({ code: "custom", message: "expected YYYY-MM-DDT00:00:00 of a calendar day", input: s });
    return z.NEVER;
  }
  return normal;
});

const option = z.object({ value: z.string().min(1), displayValue: z.string() });
const period = z.object({ previous: count, current: count });

const dailyMetric = z.array(z.object({ timeStamp, violations: count, findings: count }));
const dailyActivity = z.array(z.object({ timeStamp, fixedViolations: count, mergedViolations: count }));
// A slice's reply, its fields under the aliases slicesDocument gives them, read back by contract name.
const sliceSchema = z
  .object({
    m: z.array(z.object({ t: timeStamp, v: count, f: count })),
    a: z.array(z.object({ t: timeStamp, x: count, g: count })),
  })
  .transform(
    (r): SliceSeries => ({
      dailyMetric: r.m.map((e) => ({ timeStamp: e.t, violations: e.v, findings: e.f })),
      dailyActivity: r.a.map((e) => ({ timeStamp: e.t, fixedViolations: e.x, mergedViolations: e.g })),
    }),
  );

const insightsSchema = z.object({
  dailyMetric,
  dailyActivity,
  summary: z.object({ findings: period, violations: period, fixes: count, mergedViolations: count }),
  // Nullable in some schemas; a missing list of filter values only disables the dropdowns.
  filters: z
    .object({ scannerId: z.array(option), assetId: z.array(option) })
    .nullish()
    .transform((f) => f ?? undefined),
});

const names = z.array(z.object({ name: z.string() })).transform((fs) => fs.map((f) => f.name));

/** A type reference as our introspection query selects it: up to three wrapper levels deep. */
interface TypeRef {
  fields?: { name: string }[] | null;
  ofType?: TypeRef | null;
}
const typeRef: z.ZodType<TypeRef> = z.lazy(() =>
  z.object({
    fields: z.array(z.object({ name: z.string() })).nullish(),
    ofType: typeRef.nullish(),
  }),
);

const introspectionSchema = z.object({
  __schema: z.object({
    queryType: z.object({ fields: z.array(z.object({ name: z.string(), type: typeRef.nullish() })) }),
    mutationType: z.object({ fields: names.nullish() }).nullable(),
  }),
});

const insightsReply = z.object({ insights: insightsSchema });

/** `data` of an insights reply through the schema alone (the reader's reference; see reply-reader.ts). */
export function insightsBySchema(data: unknown): InsightsResult {
  return check(insightsReply, data, "insights").insights;
}

/** Validates `data` of an insights reply. `withFilters` says whether `filters` was selected. */
export function parseInsightsData(data: unknown, withFilters: boolean): InsightsResult {
  const { filters, ...rest } = readInsights(data) ?? insightsBySchema(data);
  return withFilters && filters ? { ...rest, filters } : rest;
}

const slicesSchemas = new Map<string, z.ZodType>();

/** Validates `data` of a slices reply: every alias asked for, in the order asked. */
export function parseSlicesData(data: unknown, aliases: readonly string[]): SliceSeries[] {
  return readSlices(data, aliases) ?? slicesBySchema(data, aliases);
}

/** `data` of a slices reply through the schema alone (the reader's reference; see reply-reader.ts). */
export function slicesBySchema(data: unknown, aliases: readonly string[]): SliceSeries[] {
  const key = aliases.join(",");
  let schema = slicesSchemas.get(key);
  if (!schema) {
    schema = z.object(Object.fromEntries(aliases.map((a) => [a, sliceSchema])));
    if (slicesSchemas.size > 100) slicesSchemas.clear();
    slicesSchemas.set(key, schema);
  }
  const reply = check(schema, data, "slices") as Record<string, SliceSeries>;
  return aliases.map((a) => reply[a] as SliceSeries);
}

/** Validates `data` of an introspection reply and reduces it to what the client needs. */
export function parseIntrospectionData(data: unknown): AnalyticsIntrospection {
  const s = check(introspectionSchema, data, "introspection").__schema;
  const insights = s.queryType.fields.find((f) => f.name === "insights");
  return {
    queryFields: s.queryType.fields.map((f) => f.name).sort(),
    mutationFields: s.mutationType ? [...(s.mutationType.fields ?? [])].sort() : null,
    filtersSelectable: insights ? namedTypeFields(insights.type).includes("filters") : false,
  };
}

/** Field names of the named type under NON_NULL/LIST wrappers. */
function namedTypeFields(ref: TypeRef | null | undefined): string[] {
  for (let t = ref; t; t = t.ofType) if (t.fields) return t.fields.map((f) => f.name);
  return [];
}

function check<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  // Paths and zod's own wording only: echoing values could leak whatever the server sent.
  const where = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
    .join("; ");
  return fail(`Analytics service sent an ${what} reply of the wrong shape (${where})`);
}

function fail(message: string): never {
  throw new AnalyticsError("bad_response", message);
}
