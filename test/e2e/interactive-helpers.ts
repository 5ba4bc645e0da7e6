import type { ChildProcess } from "node:child_process";
import type { Stack } from "../../sandbox/stack.ts";
import type { InteractiveWorkerOptions } from "../../src/app/interactive-worker.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { spawnWorkerProcess } from "../setup/worker-process.ts";

/** A worker process as `insights-digest worker` runs it, on the stack's queues, its log lines kept. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Its JSON log lines, parsed. */
  lines: Record<string, unknown>[];
  /** Its other lines on stdout (what `extra` code printed), as they came. */
  said: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `startWorker` in a process of its own and resolves once it is taking jobs and requests. */
export async function spawnWorker(
  stack: Stack,
  interactive: InteractiveWorkerOptions,
  /** Module code run once the worker started (before it prints `ready`). */
  extra = "",
): Promise<WorkerProcess> {
  const child = spawnWorkerProcess(
    // Ready once its request threads read the stream: a request sent earlier would wait for their start.
    `const started = await startWorker({
      config: loadConfig("worker", o.env),
      logger: createLogger({ level: "info", name: "test-worker" }),
      prefix: o.prefix,
      queueName: o.queueName,
      healthPort: null,
      interactive: o.interactive,
    });
    await started.requestsReady(30_000);
    ${extra}`,
    {
      env: stack.env,
      prefix: stack.prefix,
      queueName: stack.queueName,
      interactive: { queueName: stack.interactiveQueue, ...interactive },
    },
  );
  const lines: Record<string, unknown>[] = [];
  const said: string[] = [];
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (c, signal) => resolve({ code: c, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${out}${err}`)), 20_000);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const parts = out.split("\n");
      out = parts.pop() ?? "";
      for (const line of parts) {
        if (line === "ready") {
          clearTimeout(timer);
          resolve();
        } else if (line.startsWith("{")) lines.push(JSON.parse(line) as Record<string, unknown>);
        else said.push(line);
      }
    });
    child.once("exit", (c) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${c}) before it was ready: ${err}`));
    });
  });
  return { child, lines, said, exited };
}

/** The claims of handed-off requests in the stack's key space, by key. */
export async function requestClaims(stack: Stack): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const batch of scanKeys(stack.redis, `${stack.prefix ?? "insights"}:*:ireq:*`))
    for (const key of batch) out[key] = (await stack.redis.get(key)) ?? "";
  return out;
}
