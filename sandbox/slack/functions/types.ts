/** One run of a custom step, as Slack (Workflow Builder) tracks it. */
export interface FunctionExecution {
  /** `function_execution_id` (`Fx…`). */
  id: string;
  workflowExecutionId: string;
  callbackId: string;
  teamId: string;
  /** The just-in-time `bot_access_token` (`xwfp-…`) sent with the event; dies with the run. */
  token: string;
  inputs: Record<string, unknown>;
  status: "running" | "completed" | "failed";
  outputs: Record<string, unknown> | undefined;
  /** The message `functions.completeError` gave, which Slack shows the workflow's owner. */
  error: string | undefined;
  startedAt: number;
  endedAt: number | undefined;
  /** completeSuccess / completeError calls Slack refused (bad outputs, a second completion…). */
  refusals: { method: string; error: string; messages: string[] }[];
}
