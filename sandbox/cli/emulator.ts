import {
  DEMO_API_KEY,
  type Emulator,
  type EmulatorOptions,
  SCENARIO_KEYS,
  SECOND_API_KEY,
  SEED_INSIGHTS_QUERY,
  startEmulator,
} from "../analytics/index.ts";

export interface EmulatorArgs {
  port: number;
  host: string;
  apiKeys: string[];
}

export type ParsedArgs = { ok: true; args: EmulatorArgs } | { ok: false; message: string };

/** Parses `--port N`, `--host H`, `--api-key K` (repeatable); `--flag=value` works too. */
export function parseEmulatorArgs(argv: readonly string[]): ParsedArgs {
  const args: EmulatorArgs = { port: 4000, host: "127.0.0.1", apiKeys: [] };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] ?? "";
    const eq = raw.indexOf("=");
    const flag = raw.startsWith("--") && eq > 0 ? raw.slice(0, eq) : raw;
    const inline = raw.startsWith("--") && eq > 0 ? raw.slice(eq + 1) : undefined;
    if (flag !== "--port" && flag !== "--host" && flag !== "--api-key") {
      return {
        ok: false,
        message: `Unknown option "${raw}". Options: --port N, --host H, --api-key K (repeatable).`,
      };
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value === "" || (inline === undefined && value.startsWith("--"))) {
      return { ok: false, message: `${flag} needs a value.` };
    }
    if (flag === "--port") {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port < 0 || port > 65_535) {
        return { ok: false, message: `--port must be a whole number from 0 to 65535, not "${value}".` };
      }
      args.port = port;
    } else if (flag === "--host") {
      args.host = value;
    } else if (/\s/.test(value)) {
      return {
        ok: false,
        message: "--api-key must not contain spaces (it goes after `ApiKey ` in a header).",
      };
    } else {
      args.apiKeys.push(value);
    }
  }
  return { ok: true, args };
}

/** The banner: URLs, keys and a curl line with a single-line JSON body, ready to paste. */
export function banner(emu: Emulator, apiKeys: readonly string[]): string {
  const body = JSON.stringify({
    query: SEED_INSIGHTS_QUERY,
    variables: { scannerIdsFilter: [], assetIdsFilter: [] },
  });
  const scenarios: string[] = Object.values(SCENARIO_KEYS);
  const builtIn = [DEMO_API_KEY, SECOND_API_KEY, ...scenarios];
  const keys = [
    `${DEMO_API_KEY} (demo)`,
    `${SECOND_API_KEY} (second account)`,
    `${scenarios.join(", ")} (scenarios: a regression, a new scanner, a scanner outage)`,
    ...apiKeys.filter((k) => !builtIn.includes(k)),
  ];
  return [
    "Analytics GraphQL emulator running.",
    `  App URL:     ${emu.appUrl}`,
    `  GraphQL URL: ${emu.graphqlUrl}`,
    `  Config URL:  ${emu.configUrl}`,
    `  API keys:    ${keys.join(", ")}`,
    "",
    "Try it (last 7 days, no filters):",
    `  curl -sS -X POST '${emu.graphqlUrl}' -H 'Authorization: ApiKey ${DEMO_API_KEY}' -H 'Content-Type: application/json' -H 'Accept: application/json' --data '${body}'`,
    "",
    "Press Ctrl+C to stop.",
    "",
  ].join("\n");
}

export interface RunIo {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Resolves when the emulator should stop; default: SIGINT or SIGTERM. */
  stop?: Promise<unknown>;
  /** Called once the emulator listens (tests use it to reach the server). */
  onReady?: (emu: Emulator) => void;
}

function signalled(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: string) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolve(signal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

/** `insights-digest emulator [--port N] [--host H] [--api-key K]…`: runs until SIGINT/SIGTERM. */
export async function run(argv: string[], io: RunIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const parsed = parseEmulatorArgs(argv);
  if (!parsed.ok) {
    stderr.write(`insights-digest emulator: ${parsed.message}\n`);
    return 2;
  }
  const { port, host, apiKeys } = parsed.args;
  const options: EmulatorOptions = { port, host, apiKeys };
  const stop = io.stop ?? signalled();
  const emu = await startEmulator(options);
  stdout.write(banner(emu, apiKeys));
  io.onReady?.(emu);
  await stop;
  await emu.close();
  stdout.write("Emulator stopped.\n");
  return 0;
}
