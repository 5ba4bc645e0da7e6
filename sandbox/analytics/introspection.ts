import type { ExecutionResult } from "graphql";

function rotate<T>(list: T[], shift: number): void {
  if (list.length < 2) return;
  const k = ((shift % list.length) + list.length) % list.length;
  list.push(...list.splice(0, k));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Rotates the query root fields in an introspection result, in place, as the contract says their
 * order differs between replies. Covers `__schema.queryType.fields` and the `Query` entry of
 * `__schema.types` (full introspection) and `__type(name: "Query")`, under any alias. Returns whether anything was found.
 */
export function rotateRootFields(result: ExecutionResult, shift: number): boolean {
  let found = false;
  for (const value of Object.values(result.data ?? {})) {
    if (!isRecord(value)) continue;
    if (value.name === "Query" && Array.isArray(value.fields)) {
      rotate(value.fields, shift);
      found = true;
    }
    const queryType = value.queryType;
    if (isRecord(queryType) && Array.isArray(queryType.fields)) {
      rotate(queryType.fields, shift);
      found = true;
    }
    if (Array.isArray(value.types)) {
      for (const type of value.types) {
        if (isRecord(type) && type.name === "Query" && Array.isArray(type.fields)) {
          rotate(type.fields, shift);
          found = true;
        }
      }
    }
  }
  return found;
}
