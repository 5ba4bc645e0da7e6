import { AppError } from "../errors.ts";

/** What the "Send insights digest" step was asked for, once its inputs are checked. */
export interface StepRequest {
  channelId: string;
  range: string;
  assetNames: string[];
  scannerNames: string[];
}

const STEP_DEFAULT_RANGE = "last7d";

const bad = (message: string) => new AppError("bad_input", message);

/** A comma-separated list input: names may hold spaces and slashes, never commas. */
function names(value: unknown, input: string): string[] {
  if (value === undefined || value === null || value === "") return [];
  if (typeof value !== "string") throw bad(`The "${input}" input must be text: names separated by commas.`);
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length > 20)
    throw bad(`The "${input}" input names ${list.length} filters; at most 20 fit in one digest.`);
  return list;
}

/**
 * Checks the step's inputs (Workflow Builder passes what people typed, or a previous step's output,
 * unchecked). Pure: throws `bad_input` with words for the workflow's owner. The range itself is
 * checked by the digest service, which knows the grammar.
 */
export function readStepInputs(inputs: Record<string, unknown>): StepRequest {
  const channel = inputs.channel_id;
  if (typeof channel !== "string" || channel === "")
    throw bad('The step needs a channel: pick one in the "Channel" input.');
  if (!/^[CG][A-Z0-9]{2,30}$/.test(channel))
    throw bad('The "Channel" input must be a public or private channel, not a person or a DM.');
  const range = inputs.range;
  if (range !== undefined && range !== null && typeof range !== "string")
    throw bad('The "Range" input must be text such as last7d or 2026-11-01..2026-11-15.');
  return {
    channelId: channel,
    range: typeof range === "string" && range.trim() !== "" ? range.trim() : STEP_DEFAULT_RANGE,
    assetNames: names(inputs.assets, "Assets"),
    scannerNames: names(inputs.scanners, "Scanners"),
  };
}
