import type { KeyScheme, WorkspaceRef } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";

/**
 * What a workspace's admins chose for the whole workspace, one small hash per workspace. Read for
 * every digest, so each process remembers a workspace's answer for a few seconds: a change reaches
 * every process within that time, and a storm of deliveries asks Redis once per workspace.
 */

/** The settings as stored; values are checked by whoever uses them (unknown ones read as unset). */
export interface WorkspaceSettings {
  /** How digests show their trend and drivers: `native`, `png` or `off`; unset = the default. */
  chart?: string;
}

export interface WorkspaceSettingsStore {
  get(ref: WorkspaceRef): Promise<WorkspaceSettings>;
  /** Sets the chart setting, or clears it (back to the default) with null. */
  setChart(ref: WorkspaceRef, chart: string | null): Promise<void>;
}

export interface WorkspaceSettingsOptions {
  redis: RedisClient;
  keys: KeyScheme;
  /** How long a process trusts what it read [10 s]. */
  cacheMs?: number;
  now?: () => number;
}

/** Workspaces remembered at once; past this the oldest answers are forgotten. */
const REMEMBERED = 10_000;

export function createWorkspaceSettings(o: WorkspaceSettingsOptions): WorkspaceSettingsStore {
  const cacheMs = o.cacheMs ?? 10_000;
  const now = o.now ?? Date.now;
  const seen = new Map<string, { at: number; value: WorkspaceSettings }>();
  return {
    async get(ref) {
      const key = o.keys.settings(ref);
      const hit = seen.get(key);
      if (hit && now() - hit.at < cacheMs) return hit.value;
      const chart = await o.redis.hget(key, "chart");
      const value: WorkspaceSettings = chart ? { chart } : {};
      if (seen.size >= REMEMBERED) seen.delete(seen.keys().next().value as string);
      seen.set(key, { at: now(), value });
      return value;
    },
    async setChart(ref, chart) {
      const key = o.keys.settings(ref);
      if (chart === null) await o.redis.hdel(key, "chart");
      else await o.redis.hset(key, "chart", chart);
      seen.delete(key);
    },
  };
}
