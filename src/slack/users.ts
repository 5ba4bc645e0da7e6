import type { WebClient } from "@slack/web-api";
import { AppError } from "../errors.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";

/** What the app needs to know about a Slack user: timezone for ranges, role for permissions. */
export interface SlackUser {
  id: string;
  name: string;
  tz: string;
  isAdmin: boolean;
  isOwner: boolean;
  isRestricted: boolean;
  deleted: boolean;
}

export interface UserDirectory {
  get(ref: WorkspaceRef, client: WebClient, userId: string): Promise<SlackUser>;
  /**
   * The user as this process or Redis already knows them, without asking Slack: null when neither
   * does. For answers due before the ack (a modal submission), where no Slack call may run.
   */
  known(ref: WorkspaceRef, userId: string): Promise<SlackUser | null>;
}

interface UsersInfoUser {
  id?: string;
  name?: string;
  real_name?: string;
  tz?: string;
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  deleted?: boolean;
}

function validTz(tz: string | undefined): string {
  if (!tz) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return tz;
  } catch {
    return "UTC";
  }
}

export function toSlackUser(userId: string, u: UsersInfoUser): SlackUser {
  return {
    id: userId,
    name: u.real_name || u.name || userId,
    tz: validTz(u.tz),
    isAdmin: u.is_admin === true,
    isOwner: u.is_owner === true || u.is_primary_owner === true,
    isRestricted: u.is_restricted === true || u.is_ultra_restricted === true,
    deleted: u.deleted === true,
  };
}

/**
 * users.info behind a Redis cache (default 1 hour): the caller's timezone and role are needed on
 * every command, and users.info is rate limited (Tier 4). Each process also remembers the users it
 * looked up for `memoMs` (default 30 s), so a person's next click costs the acking event loop no
 * Redis round trip; within the Redis cache's hour that changes nothing a person could notice.
 */
export function createUserDirectory(options: {
  redis: RedisClient;
  keys: KeyScheme;
  ttlSeconds?: number;
  memoMs?: number;
}): UserDirectory {
  const ttl = options.ttlSeconds ?? 3600;
  const memoMs = options.memoMs ?? 30_000;
  const memo = new Map<string, { user: SlackUser; until: number }>();
  const remember = (key: string, user: SlackUser) => {
    if (memo.size >= 10_000) memo.clear();
    memo.set(key, { user, until: Date.now() + memoMs });
    return user;
  };
  const checked = (userId: string) => {
    if (typeof userId !== "string" || !/^[UW][A-Z0-9]{2,31}$/.test(userId)) {
      throw new AppError(
        "unknown_user",
        "This request names no Slack user, so I can't check your time zone or role.",
      );
    }
    return userId;
  };
  const known = async (key: string): Promise<SlackUser | null> => {
    const held = memo.get(key);
    if (held && held.until > Date.now()) return held.user;
    const cached = await options.redis.get(key);
    return cached ? remember(key, JSON.parse(cached) as SlackUser) : null;
  };
  return {
    known: (ref, userId) => known(options.keys.user(ref, checked(userId))),
    async get(ref, client, userId) {
      const key = options.keys.user(ref, checked(userId));
      const found = await known(key);
      if (found) return found;
      const res = await client.users.info({ user: userId }).catch((err: unknown) => {
        const code = (err as { data?: { error?: string } }).data?.error;
        // Slack could not say who is asking: permissions and time zones depend on it, so stop here.
        if (code === "user_not_found" || code === "users_not_found" || code === "invalid_arguments") {
          throw new AppError(
            "unknown_user",
            "Slack could not tell me who you are, so I can't check your time zone or role. Try again from your own account.",
          );
        }
        throw err;
      });
      if (!res.ok || !res.user) {
        throw new AppError(
          "unknown_user",
          "Slack could not tell me who you are, so I can't check your time zone or role.",
        );
      }
      const user = toSlackUser(userId, res.user as UsersInfoUser);
      await options.redis.set(key, JSON.stringify(user), "EX", ttl);
      return remember(key, user);
    },
  };
}
