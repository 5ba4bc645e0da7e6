import { setPriority } from "node:os";
import { startWorker, type WorkerHandle } from "../../src/app/worker.ts";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/log.ts";
import { serveRpc } from "./child.ts";

/**
 * A worker process as `insights-digest worker` runs it next to `web`: it computes the digests the
 * web process hands off through the interactive queue (and would deliver scheduled ones).
 */
export interface InteractiveChildOptions {
  /** The stack's environment (Slack stand-in, emulator, Redis, keyring). */
  env: Record<string, string>;
  prefix?: string;
  queueName: string;
  interactiveQueue: string;
}

let handle: WorkerHandle | undefined;

if (process.send) {
  serveRpc({
    async start(o: InteractiveChildOptions) {
      // Web and worker share this machine's cores here: the worker runs at a lower priority, as the
      // README recommends for such hosts, so Slack's acks come before digest work.
      setPriority(10);
      handle = await startWorker({
        config: loadConfig("worker", o.env),
        logger: silentLogger(),
        prefix: o.prefix,
        queueName: o.queueName,
        healthPort: null,
        interactive: { queueName: o.interactiveQueue },
      });
      return { pid: process.pid };
    },
    async close() {
      await handle?.close();
      handle = undefined;
    },
  });
}
