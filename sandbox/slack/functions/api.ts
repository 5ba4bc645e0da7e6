import { json, slackError, str } from "../api/args.ts";
import { type ApiContext, type ApiMethod, authed } from "../api/context.ts";
import { revokeToken } from "../tokens.ts";
import { checkParameters } from "./schema.ts";
import type { FunctionExecution } from "./types.ts";

/** The running execution the call names, reachable with its own workflow token or the team's bot token. */
function execution(ctx: ApiContext, method: string): FunctionExecution {
  const { ws, token } = authed(ctx);
  const id = str(ctx.args, "function_execution_id");
  if (!id)
    throw slackError("invalid_arguments", {
      response_metadata: { messages: ["[ERROR] missing function_execution_id"] },
    });
  const run = ctx.state.functionExecutions.get(id);
  if (!run || run.teamId !== ws.teamId) throw slackError("function_execution_not_found");
  if (token.kind === "workflow" && token.token !== run.token) throw slackError("access_denied");
  if (run.status !== "running") {
    run.refusals.push({ method, error: "execution_not_in_running_state", messages: [] });
    throw slackError("execution_not_in_running_state");
  }
  return run;
}

/** Ends a run: its workflow token stops working, as Slack's do when the step completes. */
function finish(ctx: ApiContext, run: FunctionExecution, status: "completed" | "failed") {
  run.status = status;
  run.endedAt = ctx.state.now();
  revokeToken(ctx.state, run.token, "token_expired");
}

const completeSuccess: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const run = execution(ctx, "functions.completeSuccess");
    const outputs = json(ctx.args, "outputs", "invalid_arguments") ?? {};
    const step = ctx.state.manifest.functions.get(run.callbackId);
    const problems = step
      ? checkParameters("outputs", step.outputs, outputs)
      : [`${run.callbackId} is not in the manifest`];
    if (problems.length > 0) {
      const messages = problems.map((p) => `[ERROR] ${p}`);
      run.refusals.push({
        method: "functions.completeSuccess",
        error: "parameter_validation_failed",
        messages,
      });
      throw slackError("parameter_validation_failed", { errors: problems, response_metadata: { messages } });
    }
    run.outputs = outputs as Record<string, unknown>;
    finish(ctx, run, "completed");
    return {};
  },
};

const completeError: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const run = execution(ctx, "functions.completeError");
    const error = str(ctx.args, "error");
    if (!error)
      throw slackError("invalid_arguments", { response_metadata: { messages: ["[ERROR] missing error"] } });
    run.error = error;
    finish(ctx, run, "failed");
    return {};
  },
};

export const functionMethods: Record<string, ApiMethod> = {
  "functions.completeSuccess": completeSuccess,
  "functions.completeError": completeError,
};
