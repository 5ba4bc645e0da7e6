import { loadSandbox } from "./sandbox.ts";

/** One CLI subcommand: loaded lazily so `--help` and light commands start fast. */
export interface CliCommand {
  name: string;
  args: string;
  summary: string;
  /**
   * Reads `.env` before running. The sandbox tools (demo, emulator, bench) do not: they bring a
   * private Redis, emulator and Slack stand-in, and a half-filled `.env` would only get in the way.
   */
  envFile: boolean;
  load: () => Promise<{ run: (args: string[]) => Promise<number> }>;
}

/** The registration table of the CLI; each command lives in its own module. */
export const COMMANDS: CliCommand[] = [
  {
    name: "demo",
    args: "[--keep] [--out DIR]",
    summary:
      "Play the whole product on loopback with nothing configured: private Redis, analytics emulator, Slack stand-in and the real app; prints what a Slack user sees.",
    envFile: false,
    load: () => loadSandbox("cli/demo.ts"),
  },
  {
    name: "start",
    args: "",
    summary:
      "Run the web process and the delivery worker in one process (small installs): /slack/events, /healthz and /readyz on PORT, scheduled digests delivered; SIGTERM drains both.",
    envFile: true,
    load: () => import("./start.ts"),
  },
  {
    name: "web",
    args: "",
    summary:
      "Run the Slack-facing HTTP process (/slack/events, /healthz, /readyz), or Socket Mode when SLACK_APP_TOKEN is set.",
    envFile: true,
    load: () => import("./web.ts"),
  },
  {
    name: "worker",
    args: "",
    summary:
      "Run the delivery worker for scheduled digests (WORKER_CONCURRENCY jobs at a time, /healthz and /readyz on HEALTH_PORT).",
    envFile: true,
    load: () => import("./worker.ts"),
  },
  {
    name: "emulator",
    args: "[--port N] [--api-key K]…",
    summary:
      "Run the analytics GraphQL emulator (a stand-in for the platform's analytics service) and print its URLs.",
    envFile: false,
    load: () => loadSandbox("cli/emulator.ts"),
  },
  {
    name: "preview",
    args: '[range] [asset:"parent / child"] [scanner:id] [--why] [--json] [--chart FILE.png] [--tz Area/City]',
    summary:
      "Print a digest in the terminal for ANALYTICS_API_KEY at ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL; with none set, runs against the built-in emulator (ANALYTICS_API_KEY may name one of its demo or scenario keys). --why adds the drivers, as the Why? button does.",
    envFile: true,
    load: () => import("./preview.ts"),
  },
  {
    name: "export",
    args: '[range] [asset:"parent / child"] [scanner:id] [--tz Area/City] [--out FILE.csv]',
    summary:
      "Write the daily series as CSV (header row first, then one row per day: findings, violations, fixes, merged) to stdout or FILE, the file `/insights export` uploads; range, comparison and filters go to stderr; same analytics source as preview.",
    envFile: true,
    load: () => import("./export.ts"),
  },
  {
    name: "bench",
    args: "[--quick] [--only SECTIONS] [--out DIR]",
    summary:
      "Measure ack latency, digest storms, render cost, faults, bad input and drivers on loopback (--quick, --only drivers,…); writes test/bench/results/ (from a source checkout).",
    envFile: false,
    load: () => loadSandbox("cli/bench.ts"),
  },
  {
    name: "status",
    args: "[--workspace T0123] [--json] [--prefix NAME] [--queue NAME]",
    summary:
      "Print what /ops shows (needs REDIS_URL): the delivery queue, the last slot's and the last 24 h's deliveries per workspace (posted, late, skipped, failed by code), the newest failures; --workspace for one workspace's subscriptions and alerts; --json for scripts.",
    envFile: true,
    load: () => import("./status.ts"),
  },
  {
    name: "rotate-keys",
    args: "[--prefix NAME]",
    summary:
      "Re-encrypt every stored API key and bot token under the newest key of ENCRYPTION_KEYS (needs REDIS_URL).",
    envFile: true,
    load: () => import("./rotate-keys.ts"),
  },
  {
    name: "backup",
    args: "[--prefix NAME] > FILE",
    summary:
      "Write every record that cannot be rebuilt (installations, API keys, subscriptions with their run and alert state, alert messages and votes, workspace settings, time slots) to stdout, secrets still sealed (needs REDIS_URL).",
    envFile: true,
    load: () => import("./backup.ts"),
  },
  {
    name: "restore",
    args: "[--prefix NAME] [--replace] < FILE",
    summary:
      "Read a backup from stdin into REDIS_URL under the prefix it was taken under: checked whole first (format version, checksum, every secret opens with ENCRYPTION_KEYS); a prefix holding other records is refused unless --replace, which makes it equal to the file.",
    envFile: true,
    load: () => import("./restore.ts"),
  },
];

export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  const withEnv = COMMANDS.filter((c) => c.envFile).map((c) => c.name);
  return [
    "Usage: insights-digest <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    'Run "insights-digest <command> --help" for a command\'s options, "insights-digest --version" for the version.',
    `${withEnv.join(", ")} read .env from the working directory; variables already set win over it.`,
    "",
  ].join("\n");
}
