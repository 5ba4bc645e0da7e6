import type { AllMiddlewareArgs, AnyMiddlewareArgs, RespondFn } from "@slack/bolt";
import type { RequestFacts } from "./context.ts";

/** Bolt's arguments as the frame reads them (listeners of every kind). */
export type Args = AnyMiddlewareArgs & AllMiddlewareArgs & { ack?: (response?: unknown) => Promise<void> };
type Body = Record<string, unknown>;

export const obj = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
export const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The person, surface and conversation of an interaction or command, whatever its shape. */
export function factsOf(
  args: Pick<Args, "body" | "context" | "client">,
  kind: string,
  id: string,
): RequestFacts {
  const body = args.body as unknown as Body;
  const view = obj(body.view);
  const container = obj(body.container);
  const userId = str(body.user_id) ?? str(obj(body.user).id) ?? "";
  const channelId = str(body.channel_id) ?? str(obj(body.channel).id) ?? str(container.channel_id);
  const respond = (args as { respond?: RespondFn }).respond;
  return {
    context: args.context,
    client: args.client,
    userId,
    respond: str(body.response_url) || Array.isArray(body.response_urls) ? respond : undefined,
    viewType: str(view.type) ?? (str(container.type) === "view" ? "modal" : undefined),
    channelId,
    ephemeral: container.is_ephemeral === true,
    logFields: { teamId: args.context.teamId, userId, [kind]: id },
  };
}

/** The workspace as Bolt's context resolved it (events name theirs only in `authorizations`). */
export const teamOfContext = (args: Pick<Args, "context">) => ({
  teamId: args.context.teamId,
  enterpriseId: args.context.enterpriseId,
  isEnterpriseInstall: args.context.isEnterpriseInstall,
});
