import { loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { createDeliveryLog } from "../jobs/delivery-log.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import { silentLogger } from "../log.ts";
import { readSummary, readWorkspace, workspaceRefOf } from "../ops/status.ts";
import { summaryText, workspaceText } from "../ops/terminal.ts";
import { createKeyScheme, DEFAULT_PREFIX } from "../store/keys.ts";
import { parseCliArgs } from "./args.ts";
import { connectOnce } from "./redis-once.ts";

const USAGE = "status [--workspace T0123] [--json] [--prefix NAME] [--queue NAME]";

/**
 * `insights-digest status`: what /ops shows, in the terminal (for operators with only a shell), or
 * as JSON for scripts: the queue, the last slot's and the last 24 h's deliveries per workspace, the
 * newest failures; with `--workspace`, one workspace's subscriptions and alerts. Read-only: retries
 * are for /ops, where they are audited with who asked.
 */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCliArgs(
    {
      args,
      options: {
        workspace: { type: "string" },
        json: { type: "boolean" },
        prefix: { type: "string" },
        queue: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    },
    USAGE,
  );
  const config = loadConfig("status");
  if (!config.redisUrl) throw new AppError("config", "status needs REDIS_URL");
  const ref = values.workspace === undefined ? null : workspaceRefOf(values.workspace);
  if (values.workspace !== undefined && !ref)
    throw new AppError(
      "usage",
      `status: "${values.workspace.slice(0, 40)}" is not a team id (T…) or a label such as E01.T0123.`,
    );
  const redis = await connectOnce(config.redisUrl);
  const prefix = values.prefix ?? DEFAULT_PREFIX;
  const runtime = createSubscriptionRuntime({
    redis,
    queuePrefix: config.queuePrefix,
    logger: silentLogger(),
    prefix,
    queueName: values.queue,
  });
  try {
    const sources = {
      queue: runtime.queue,
      log: createDeliveryLog({
        redis,
        keys: createKeyScheme({ prefix }),
        lateAfterMs: config.deliveryLateMs,
      }),
      subscriptions: runtime.subscriptions,
      clock: () => new Date(),
    };
    if (ref) {
      const view = await readWorkspace(sources, ref);
      process.stdout.write(values.json ? `${JSON.stringify(view, null, 2)}\n` : workspaceText(view));
    } else {
      const summary = await readSummary(sources);
      process.stdout.write(values.json ? `${JSON.stringify(summary, null, 2)}\n` : summaryText(summary));
    }
    return 0;
  } finally {
    await runtime.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}
