import { createHash } from "node:crypto";
import { AppError } from "../../../src/errors.ts";
import { randomAlnum, randomHex } from "../ids.ts";
import type { StepDefinition, StepParameter } from "../manifest/manifest.ts";
import type { StandInState } from "../state.ts";
import { checkParameters } from "./schema.ts";
import type { FunctionExecution } from "./types.ts";

export interface StepRun {
  teamId: string;
  /** The step's `callback_id` in the manifest's `functions`. */
  callbackId: string;
  inputs: Record<string, unknown>;
  /**
   * Skip the stand-in's own check of `inputs` against the manifest. Workflow Builder never runs a
   * step with a missing required input; tests of the app's own validation turn this on.
   */
  unchecked?: boolean;
}

const wireParameter = (p: StepParameter) => ({
  type: p.type,
  name: p.name,
  ...(p.title ? { title: p.title } : {}),
  ...(p.description ? { description: p.description } : {}),
  is_required: p.isRequired,
});

/** A function id that stays the same for one step, as Slack's `Fn…` ids do across runs. */
const functionId = (appId: string, callbackId: string) =>
  `Fn${createHash("sha256").update(`${appId}:${callbackId}`).digest("hex").slice(0, 10).toUpperCase()}`;

/**
 * Starts a run of a custom step the way Workflow Builder does: records the execution, mints its
 * just-in-time `xwfp-` token, and returns the `function_executed` event to deliver.
 */
export function startExecution(
  state: StandInState,
  appId: string,
  run: StepRun,
): { execution: FunctionExecution; event: Record<string, unknown> } {
  const step: StepDefinition | undefined = state.manifest.functions.get(run.callbackId);
  if (!step) throw new AppError("unknown_step", `the manifest declares no function "${run.callbackId}"`);
  if (!run.unchecked) {
    const problems = checkParameters("inputs", step.inputs, run.inputs);
    if (problems.length > 0)
      throw new AppError(
        "bad_step_inputs",
        `Workflow Builder would not run this step: ${problems.join("; ")}`,
      );
  }
  const token = `xwfp-${run.teamId}-${randomHex(16)}`;
  state.tokens.set(token, {
    token,
    teamId: run.teamId,
    kind: "workflow",
    expiresAt: undefined,
    revokedWith: undefined,
  });
  const execution: FunctionExecution = {
    id: `Fx${randomAlnum(10)}`,
    workflowExecutionId: `Wx${randomAlnum(10)}`,
    callbackId: run.callbackId,
    teamId: run.teamId,
    token,
    inputs: run.inputs,
    status: "running",
    outputs: undefined,
    error: undefined,
    startedAt: state.now(),
    endedAt: undefined,
    refusals: [],
  };
  state.functionExecutions.set(execution.id, execution);
  const created = 1_700_000_000;
  const event = {
    type: "function_executed",
    function: {
      id: functionId(appId, step.callbackId),
      callback_id: step.callbackId,
      title: step.title,
      ...(step.description ? { description: step.description } : {}),
      type: "app",
      input_parameters: step.inputs.map(wireParameter),
      output_parameters: step.outputs.map(wireParameter),
      app_id: appId,
      date_created: created,
      date_updated: created,
      date_deleted: 0,
    },
    inputs: run.inputs,
    function_execution_id: execution.id,
    workflow_execution_id: execution.workflowExecutionId,
    bot_access_token: token,
  };
  return { execution, event };
}
