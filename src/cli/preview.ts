import { writeFileSync } from "node:fs";
import { parseCommand } from "../../commands/grammar.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { createAnalyticsClient } from "../analytics/client.ts";
import { renderText } from "../blockkit/to-text.ts";
import { renderChartPng } from "../chart/render.ts";
import { loadConfig } from "../config.ts";
import { chartInputFor } from "../digests/chart-input.ts";
import { createDigestService } from "../digests/digest-service.ts";
import { AppError } from "../errors.ts";
import { assertTimeZone } from "../insights/dayjs.ts";
import { isRangeToken } from "../insights/range-grammar.ts";
import { silentLogger } from "../log.ts";
import { parseCliArgs } from "./args.ts";
import { loadSandbox } from "./sandbox.ts";
import { commandText } from "./words.ts";

const PREVIEW_REF = { teamId: "TPREVIEW" };

/** The part of the sandbox's analytics emulator that preview uses when no service is configured. */
interface EmulatorModule {
  DEMO_API_KEY: string;
  BUILT_IN_KEYS: readonly string[];
  startEmulator(o: { port: number }): Promise<{ appUrl: string; graphqlUrl: string; close(): Promise<void> }>;
}

const USAGE =
  "insights-digest preview [range] ['asset:\"parent / child\"'] [scanner:name] [--why] [--json] [--chart FILE.png] [--tz Area/City] [--color]";

/** What a failed chart write means, in words; other codes are shown as they are. */
const WRITE_FAILURES: Record<string, string> = {
  ENOENT: "its folder does not exist",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "that is a folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
};

function writeChart(path: string, png: Uint8Array): void {
  try {
    writeFileSync(path, png);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    const why = WRITE_FAILURES[code] ?? (code || (err as Error).message);
    throw new AppError("chart_unwritable", `Cannot write the chart to ${path}: ${why}.`, { cause: err });
  }
}

/**
 * `insights-digest preview [range] [asset:"…"] [scanner:…] [--why] [--json] [--chart FILE.png] [--tz Zone]`:
 * the digest a channel would get, in the terminal. With no analytics URL set it runs against the
 * built-in emulator's demo account, so it works on a fresh clone with nothing configured.
 */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(
    {
      args,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        chart: { type: "string" },
        tz: { type: "string" },
        color: { type: "boolean" },
        why: { type: "boolean", default: false },
      },
    },
    USAGE,
  );
  const command = parseCommand(commandText(positionals));
  if (command.kind !== "digest") {
    // Only a range is worth suggesting here: the grammar's other words are Slack commands.
    const guess =
      command.kind === "invalid" && command.suggestion && isRangeToken(command.suggestion)
        ? ` Did you mean "${command.suggestion}"?`
        : "";
    const hint =
      command.kind === "invalid"
        ? `${command.message}${guess}`
        : `"${command.kind}" is a Slack command, not a preview.`;
    throw new AppError("bad_syntax", `${hint} Usage: ${USAGE}`);
  }
  const tz = values.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  assertTimeZone(tz);
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
        needs:
          "With no ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL set, preview runs against the built-in analytics emulator, which lives in a source checkout (sandbox/)",
        instead: "Or set ANALYTICS_APP_URL and ANALYTICS_API_KEY to preview against your platform.",
      });
  const emulator = await sandbox?.startEmulator({ port: 0 });
  try {
    const client = createAnalyticsClient({
      graphqlUrl: emulator?.graphqlUrl ?? config.analytics.graphqlUrl,
      appUrl: emulator ? undefined : config.analytics.appUrl,
      timeoutMs: config.analytics.timeoutMs,
      logger: silentLogger(),
    });
    // The built-in emulator knows the demo and the scenario keys: ANALYTICS_API_KEY picks one.
    const apiKey = config.analytics.apiKey ?? sandbox?.DEMO_API_KEY ?? "";
    if (sandbox && !sandbox.BUILT_IN_KEYS.includes(apiKey)) {
      throw new AppError(
        "config",
        `With no analytics URL set, preview runs the built-in emulator, which knows these keys only: ${sandbox.BUILT_IN_KEYS.join(", ")}. Set ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL to use another.`,
      );
    }
    // The CLI talks to the service directly: no Redis, no stored key.
    const digests = createDigestService({
      apiKeys: { load: async () => ({ apiKey, meta: { savedBy: "cli", savedAt: "" } }) },
      insights: { fetch: (_ref, key, query) => client.insights(key, query), invalidate: async () => 0 },
      platformUrl: config.platformUrl ?? emulator?.appUrl,
      drivers: config.drivers,
      gapRule: config.gapRule,
    });
    const { view } = await digests.build({
      ref: PREVIEW_REF,
      range: command.range,
      tz,
      now: new Date(),
      assetNames: command.assets,
      scannerNames: command.scanners,
      shareable: true,
      attribution: emulator ? `Preview · built-in emulator (${apiKey})` : "Preview",
      // --why: the answer the Why? button gives, drivers and data-gap notices included.
      ...(values.why ? { drivers: "required" as const } : {}),
      previousSeries: values.chart !== undefined,
    });
    const message = digestMessage(view);
    // The chart first: a path that cannot be written fails the command before anything is printed.
    if (values.chart) writeChart(values.chart, renderChartPng(chartInputFor(view)));
    if (values.json) process.stdout.write(`${JSON.stringify(message, null, 2)}\n`);
    else
      process.stdout.write(
        `${renderText(message, { color: values.color ?? process.stdout.isTTY === true, width: process.stdout.columns ?? 100 })}\n`,
      );
    if (values.chart) process.stderr.write(`chart written to ${values.chart}\n`);
    return 0;
  } finally {
    await emulator?.close();
  }
}
