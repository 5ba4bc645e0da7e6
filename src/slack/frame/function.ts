import type { AllMiddlewareArgs, AnyMiddlewareArgs } from "@slack/bolt";
import { isAppError } from "../../errors.ts";
import type { InteractiveJob } from "../../interactive/types.ts";
import type { Logger } from "../../log.ts";
import { codeOf } from "../../metrics.ts";
import type { AppServices } from "../services.ts";
import { workspaceOf } from "../workspace.ts";
import { type FunctionEntry, handsOff } from "./types.ts";

type Args = AnyMiddlewareArgs &
  AllMiddlewareArgs & {
    ack?: (response?: unknown) => Promise<void>;
    complete?: (params: { outputs: Record<string, unknown> }) => Promise<unknown>;
    fail?: (params: { error: string }) => Promise<unknown>;
  };

/** What the workflow's owner reads when our side broke (the details stay in our logs). */
const INTERNAL =
  "Insights could not finish this step because of a problem on its side. Try the workflow again in a few minutes.";

/** Words for a failed run: our AppErrors are written for people; anything else is not shown. */
export function stepFailure(err: unknown): string {
  return isAppError(err) && err.code !== "internal" ? err.message : INTERNAL;
}

async function failRun(args: Args, log: Logger, message: string): Promise<void> {
  try {
    await args.fail?.({ error: message });
  } catch (err) {
    // The run then ends by Slack's own timeout; nothing else can reach the workflow's owner.
    log.error({ err }, "could not report the step's failure to Slack");
  }
}

/**
 * A custom step's run (`function_executed`). Bolt leaves the ack to the listener for these, so it
 * comes first, well inside Slack's 3 s; the step then completes with the entry's outputs, or fails
 * with the message of what it threw.
 */
export async function runFunction(
  deps: AppServices,
  args: Args,
  entry: FunctionEntry,
  id: string,
  /** Hands the run to the digest executor, which completes or fails the step there. */
  handOff: (team: InteractiveJob["team"]) => Promise<boolean>,
) {
  await args.ack?.();
  const event =
    (args.body as unknown as { event?: { inputs?: unknown; function_execution_id?: unknown } }).event ?? {};
  const executionId = typeof event.function_execution_id === "string" ? event.function_execution_id : "";
  const log = deps.logger.child({ teamId: args.context.teamId, step: id, executionId });
  const count = (outcome: string) => deps.metrics.requests.inc({ kind: "function", outcome });
  if (handsOff(entry) && deps.offload) {
    const { teamId, enterpriseId, isEnterpriseInstall } = args.context;
    if (!(await handOff({ teamId, enterpriseId, isEnterpriseInstall }))) await failRun(args, log, INTERNAL);
    return;
  }
  try {
    const inputs =
      typeof event.inputs === "object" && event.inputs !== null
        ? (event.inputs as Record<string, unknown>)
        : {};
    const outputs = await entry.run({
      deps: { ...deps, logger: log },
      ref: workspaceOf(args.context),
      client: args.client,
      log,
      inputs,
      executionId,
    });
    if (!args.complete) throw new Error("Bolt gave no complete() for a function_executed event");
    await args.complete({ outputs });
    log.info("step completed");
    count("ok");
  } catch (err) {
    count(codeOf(err));
    if (isAppError(err) && err.code !== "internal") log.info({ code: err.code }, "step failed");
    else log.error({ err }, "step failed");
    await failRun(args, log, stepFailure(err));
  }
}

/** A run of a step this version no longer offers: acked, and failed with words the owner can act on. */
export async function failUnknownStep(deps: AppServices, args: Args, id: string): Promise<void> {
  await args.ack?.();
  const log = deps.logger.child({ teamId: args.context.teamId, step: id });
  log.info("function_executed for a step this app does not offer");
  deps.metrics.requests.inc({ kind: "unrouted", outcome: "function" });
  await failRun(
    args,
    log,
    `Insights no longer offers the step "${id}". Remove it from the workflow or pick "Send insights digest".`,
  );
}
