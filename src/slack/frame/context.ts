import type { Context, RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { AppError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import { canManage } from "../permissions.ts";
import type { AppServices } from "../services.ts";
import type { SlackUser } from "../users.ts";
import { workspaceOf } from "../workspace.ts";
import { type Origin, replyFor } from "./reply.ts";
import type { Reply, RequestContext } from "./types.ts";

/** What the frame reads off any person's request before it picks a handler. */
export interface RequestFacts {
  context: Context;
  client: WebClient;
  userId: string;
  respond?: RespondFn;
  viewType?: string;
  channelId?: string;
  /** A person's message: answers go to this thread of `channelId`. */
  threadTs?: string;
  ephemeral?: boolean;
  /** Fields every log line of this request carries. */
  logFields: Record<string, unknown>;
}

/** A reply that works even when the workspace could not be told (a malformed payload). */
export function bareReply(deps: AppServices, facts: RequestFacts, log: Logger, ref?: WorkspaceRef): Reply {
  const origin: Origin = {
    userId: facts.userId,
    respond: facts.respond,
    viewType: facts.viewType,
    channelId: facts.channelId,
    threadTs: facts.threadTs,
    ephemeral: facts.ephemeral,
  };
  return replyFor(origin, { deps, client: facts.client, ref, log });
}

/**
 * The loaded request: workspace, lazily the user (one users.info per request at most, cached in
 * Redis across requests), and the reply for its surface. Throws `bad_request` when the payload
 * names no workspace.
 */
export function requestContext(
  deps: AppServices,
  facts: RequestFacts,
  o: { beforeAck?: boolean } = {},
): RequestContext {
  // A handed-off request's fields ride in the log context: no child logger to build per request.
  const log = Object.keys(facts.logFields).length > 0 ? deps.logger.child(facts.logFields) : deps.logger;
  const ref = workspaceOf(facts.context);
  let user: Promise<SlackUser> | undefined;
  // Before the ack nothing may call Slack: only a user this process or Redis already knows.
  const lookUp = o.beforeAck
    ? async () => {
        const known = await deps.users.known(ref, facts.userId);
        if (known) return known;
        throw new AppError(
          "user_not_checked",
          "I could not check who you are in time. Submit again in a moment; nothing was saved.",
        );
      }
    : () => deps.users.get(ref, facts.client, facts.userId);
  const loadUser = () => {
    user ??= lookUp();
    return user;
  };
  return {
    deps: { ...deps, logger: log },
    ref,
    client: facts.client,
    log,
    userId: facts.userId,
    user: loadUser,
    async isManager() {
      // Both read together: one round trip where neither is remembered yet.
      const [user, installer] = await Promise.all([loadUser(), deps.installerOf(ref)]);
      return canManage(user, deps.policy, installer);
    },
    reply: bareReply(deps, facts, log, ref),
  };
}
