import type { SlackUser } from "./users.ts";

export interface PermissionPolicy {
  /** Extra user ids allowed to manage (ADMIN_USER_IDS). */
  adminUserIds: readonly string[];
  /** Who may run on-demand digests (DIGEST_ACCESS). */
  digestAccess: "everyone" | "admins";
}

/** Connecting the key and managing subscriptions: workspace admins and owners, the installer, the allow-list. */
export function canManage(user: SlackUser, policy: PermissionPolicy, installerId?: string): boolean {
  if (user.deleted) return false;
  return user.isAdmin || user.isOwner || user.id === installerId || policy.adminUserIds.includes(user.id);
}

/** On-demand digests: every member by default; guests only when the workspace lets everyone in. */
export function canRead(user: SlackUser, policy: PermissionPolicy, installerId?: string): boolean {
  if (user.deleted) return false;
  if (policy.digestAccess === "admins") return canManage(user, policy, installerId);
  return true;
}

/** The words every refusal uses, so the rule reads the same wherever it is enforced. */
export function managersOnly(action: string): string {
  return `Only workspace admins and owners, the installer, or people on the app's admin list can ${action}.`;
}
