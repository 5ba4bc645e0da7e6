import { createAnalyticsClient } from "../analytics/client.ts";
import type { InsightsQuery, InsightsResult } from "../analytics/types.ts";
import { clockOf, utcDayOf } from "../clock.ts";
import { loadConfig } from "../config.ts";
import { createDigestService, type DigestRequest } from "../digests/digest-service.ts";
import { AppError } from "../errors.ts";
import { assertTimeZone } from "../insights/dayjs.ts";
import type { DigestView } from "../insights/types.ts";
import { silentLogger } from "../log.ts";
import { loadSandbox } from "./sandbox.ts";

/** The part of the sandbox's analytics emulator the CLI uses when no service is configured. */
interface EmulatorModule {
  DEMO_API_KEY: string;
  BUILT_IN_KEYS: readonly string[];
  startEmulator(o: {
    port: number;
    today?: () => string;
  }): Promise<{ appUrl: string; graphqlUrl: string; close(): Promise<void> }>;
}

/** The words of a digest: range and filter names, as the grammar reads them. */
export interface DigestWords {
  range: string;
  assets: string[];
  scanners: string[];
}

/** Digests for the terminal: the configured service, or the built-in emulator. */
export interface DigestSource {
  /** The digest `words` ask for now, in `tz`, with whatever else the command adds. */
  view(words: DigestWords, tz: string, extra?: Partial<DigestRequest>): Promise<DigestView>;
  /** `built-in emulator (<key>)` when the numbers come from it; "" from the configured service. */
  label: string;
  close(): Promise<void>;
}

/** The workspace the CLI stands for: no Redis, no stored key, so any id will do. */
const CLI_REF = { teamId: "TPREVIEW" };

/** The zone the CLI resolves ranges in: `--tz`, else the machine's. */
export function cliZone(tz: string | undefined): string {
  const zone = tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  assertTimeZone(zone);
  return zone;
}

/**
 * The digest service a CLI command (preview, export) reads from: ANALYTICS_API_KEY at
 * ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL, or, with none set, the built-in emulator (from a source
 * checkout), so both work on a fresh clone with nothing configured. The CLI talks to the service
 * directly: no Redis, no stored key. `command` and `use` name the command in its errors
 * ("preview", "preview against your platform").
 */
export async function openDigestSource(command: string, use: string): Promise<DigestSource> {
  const config = loadConfig("preview");
  const configured = config.analytics.graphqlUrl ?? config.analytics.appUrl;
  if (configured && !config.analytics.apiKey) {
    throw new AppError(
      "config",
      "ANALYTICS_API_KEY is required when ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL is set.",
    );
  }
  const sandbox = configured
    ? undefined
    : await loadSandbox<EmulatorModule>("analytics/index.ts", {
        needs: `With no ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL set, ${command} runs against the built-in analytics emulator, which lives in a source checkout (sandbox/)`,
        instead: `Or set ANALYTICS_APP_URL and ANALYTICS_API_KEY to ${use}.`,
      });
  // The built-in emulator knows the demo and the scenario keys: ANALYTICS_API_KEY picks one.
  const apiKey = config.analytics.apiKey ?? sandbox?.DEMO_API_KEY ?? "";
  if (sandbox && !sandbox.BUILT_IN_KEYS.includes(apiKey)) {
    throw new AppError(
      "config",
      `With no analytics URL set, ${command} runs the built-in emulator, which knows these keys only: ${sandbox.BUILT_IN_KEYS.join(", ")}. Set ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL to use another.`,
    );
  }
  // The emulator's today is the CLI's: CLOCK_AT moves both to a chosen day.
  const clock = clockOf(config);
  const emulator = await sandbox?.startEmulator({ port: 0, today: () => utcDayOf(clock) });
  const client = createAnalyticsClient({
    graphqlUrl: emulator?.graphqlUrl ?? config.analytics.graphqlUrl,
    appUrl: emulator ? undefined : config.analytics.appUrl,
    timeoutMs: config.analytics.timeoutMs,
    logger: silentLogger(),
  });
  // A digest asks for the unfiltered reply (names to ids) and then for its own, which may be the same
  // question; for one CLI command a map of the questions already asked is the app's shared cache.
  const asked = new Map<string, Promise<InsightsResult>>();
  const sharedFetch = (key: string, query: InsightsQuery) => {
    const id = JSON.stringify(query);
    const known = asked.get(id);
    if (known) return known;
    const p = client.insights(key, query);
    asked.set(id, p);
    return p;
  };
  const digests = createDigestService({
    apiKeys: { load: async () => ({ apiKey, meta: { savedBy: "cli", savedAt: "" } }) },
    insights: { fetch: (_ref, key, query) => sharedFetch(key, query), invalidate: async () => 0 },
    slices: client,
    platformUrl: config.platformUrl ?? emulator?.appUrl,
    drivers: config.drivers,
    gapRule: config.gapRule,
  });
  return {
    view: async (words, tz, extra = {}) =>
      (
        await digests.build({
          ref: CLI_REF,
          range: words.range,
          tz,
          now: clock(),
          assetNames: words.assets,
          scannerNames: words.scanners,
          ...extra,
        })
      ).view,
    label: emulator ? `built-in emulator (${apiKey})` : "",
    close: async () => {
      await emulator?.close();
    },
  };
}
