import type { StepParameter } from "../manifest/manifest.ts";

/** Slack's parameter types the stand-in checks, with what a value of each must look like. */
const CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  integer: (v) => typeof v === "number" && Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  "slack#/types/channel_id": (v) => typeof v === "string" && /^[CGD][A-Z0-9]{2,}$/.test(v),
  "slack#/types/user_id": (v) => typeof v === "string" && /^[UW][A-Z0-9]{2,}$/.test(v),
  "slack#/types/message_ts": (v) => typeof v === "string" && /^\d{9,10}\.\d{6}$/.test(v),
  "slack#/types/timestamp": (v) => typeof v === "number" && Number.isInteger(v) && v >= 0,
};

/**
 * What is wrong with `values` against declared parameters: a required one missing, a value of the
 * wrong type, or a name the manifest does not declare. Empty when the values conform.
 */
export function checkParameters(
  kind: "inputs" | "outputs",
  declared: readonly StepParameter[],
  values: unknown,
): string[] {
  if (typeof values !== "object" || values === null || Array.isArray(values))
    return [`${kind} must be an object`];
  const given = values as Record<string, unknown>;
  const problems: string[] = [];
  for (const p of declared) {
    const v = given[p.name];
    if (v === undefined || v === null) {
      if (p.isRequired) problems.push(`${kind}.${p.name} is required`);
      continue;
    }
    const check = CHECKS[p.type];
    if (!check) problems.push(`${kind}.${p.name} has type ${p.type}, which the stand-in cannot check`);
    else if (!check(v))
      problems.push(`${kind}.${p.name} must be of type ${p.type}, got ${JSON.stringify(v)}`);
  }
  for (const name of Object.keys(given))
    if (!declared.some((p) => p.name === name))
      problems.push(`${kind}.${name} is not declared in the manifest`);
  return problems;
}
