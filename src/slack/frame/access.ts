import { AppError } from "../../errors.ts";
import { canManage, canRead, managersOnly } from "../permissions.ts";
import type { Access, RequestContext } from "./types.ts";

/** The words of a refusal, by what the entry is for. */
const REFUSAL: Record<Exclude<Access, "anyone">, string> = {
  reader: "Digests are limited to workspace admins in this workspace.",
  manager: managersOnly("do that"),
};

/**
 * The access policy, applied by the frame before any handler runs: a button or a forged payload is
 * no proof of anything, so every entry states its level and nothing reaches a handler without it.
 */
export async function checkAccess(access: Access, ctx: Pick<RequestContext, "user" | "deps" | "ref">) {
  if (access === "anyone") return;
  // With DIGEST_ACCESS=everyone a reader is any member who is not deleted, and Slack sends nothing
  // from a deleted one: there is nobody to look up (no users.info, no Redis read on this path).
  if (access === "reader" && ctx.deps.policy.digestAccess === "everyone") return;
  const user = await ctx.user();
  const installer = await ctx.deps.installerOf(ctx.ref);
  const allowed =
    access === "manager"
      ? canManage(user, ctx.deps.policy, installer)
      : canRead(user, ctx.deps.policy, installer);
  if (!allowed) throw new AppError("forbidden", REFUSAL[access]);
}
