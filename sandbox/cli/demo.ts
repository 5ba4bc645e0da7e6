import { resolve } from "node:path";
import { parseCliArgs } from "../../src/cli/args.ts";
import { playConversation } from "../demo/ask.ts";
import { createDemoOutput } from "../demo/output.ts";
import { playReach } from "../demo/reach.ts";
import { interactive, playDemo } from "../demo/run.ts";
import { playRuns } from "../demo/runs.ts";
import { playScenarios } from "../demo/scenarios.ts";
import { playUnusual } from "../demo/unusual.ts";
import { clockOf, loadConfig, PRODUCT_BUILD } from "../product.ts";
import { type PrivateRedis, startPrivateRedis } from "../redis.ts";
import { type Stack, startStack } from "../stack.ts";

const USAGE = "insights-digest demo [--keep] [--socket] [--out DIR]";

/**
 * `insights-digest demo [--keep] [--socket] [--out DIR]`: the whole product on loopback with nothing
 * configured — private Redis, analytics emulator, Slack stand-in, the real app — playing the main
 * flows over HTTP, or over Socket Mode with `--socket`. Everything it started is stopped on exit,
 * Ctrl-C included.
 */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCliArgs(
    {
      args,
      options: {
        keep: { type: "boolean", default: false },
        socket: { type: "boolean", default: false },
        out: { type: "string" },
      },
    },
    USAGE,
  );
  const config = loadConfig("demo");
  // From process start, so the figure includes loading the code and starting every server.
  const started = performance.timeOrigin;
  const color = process.stdout.isTTY === true;
  const write = (t: string) => void process.stdout.write(t);
  const out = createDemoOutput(resolve(values.out ?? "demo-output"), write, color);
  let redis: PrivateRedis | undefined;
  let stack: Stack | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await stack?.close().catch(() => undefined);
      await redis?.destroy().catch(() => undefined);
    })();
    return stopping;
  };
  const onSignal = () => {
    write("\nStopping everything the demo started…\n");
    stop().then(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    if (!config.redisUrl) redis = await startPrivateRedis();
    const redisUrl = config.redisUrl ?? (redis as PrivateRedis).url;
    stack = await startStack({
      redisUrl,
      prefix: `demo${Date.now().toString(36)}`,
      oauth: true,
      worker: true,
      // CLOCK_AT plays the demo on a chosen day (a Sunday, a New Year's Eve): app and emulator alike.
      clock: clockOf(config),
      transport: values.socket ? "socket" : "http",
    });
    const via = values.socket ? "Socket Mode (WebSocket from the app to the stand-in)" : "HTTP";
    write(
      `insights-digest demo — Redis ${redis ? "(private, temporary)" : redisUrl}, analytics emulator ${stack.emulator.appUrl}, Slack stand-in ${stack.slack.baseUrl}, app ${stack.web.url} (${PRODUCT_BUILD === "dist" ? "built product from dist/" : "product from the TypeScript sources"}), Slack → app over ${via}\n`,
    );
    const result = await playDemo(stack, out);
    result.steps += await playRuns(stack, out, result.steps + 1);
    result.steps += await playReach(stack, out, result.steps + 1);
    result.steps += await playScenarios(stack, out, result.steps + 1);
    result.steps += await playUnusual(stack, out, result.steps + 1);
    result.steps += await playConversation(stack, out, result.steps + 1);
    const links = out.links();
    const acks = result.ackMs.map((ms) => `${ms.toFixed(0)} ms`).join(", ");
    write(
      `\n✔ Demo finished in ${((Date.now() - started) / 1000).toFixed(1)} s: ${result.steps} steps, ${result.digests} digests, ${out.shown.length} messages shown.\n`,
    );
    write(`  Slack acks: ${acks} (Slack allows 3,000 ms).\n`);
    write(`  Block Kit JSON, chart PNG and Block Kit Builder links: ${links}\n`);
    if (values.keep) await interactive(stack, out, process.stdin, process.stdout);
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await stop();
  }
}
