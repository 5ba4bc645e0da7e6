import type { Logger } from "../log.ts";

/**
 * Resolves with exit code 0 after a clean stop on SIGTERM/SIGINT; a second signal exits at once
 * (an operator who presses Ctrl-C twice means it). `also` may start the same stop another way (a
 * cluster primary's message), which never counts as that second signal.
 */
export function onShutdown(
  logger: Logger,
  stop: () => Promise<void>,
  also?: (begin: (why: string) => void) => void,
): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const begin = (why: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal: why }, "stopping: finishing in-flight work");
      stop().then(
        () => resolve(0),
        (err: unknown) => {
          logger.error({ err }, "error while stopping");
          // A forced stop may leave a timer or socket behind: exit even then.
          setTimeout(() => process.exit(1), 1_000).unref();
          resolve(1);
        },
      );
    };
    const handler = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting now");
        process.exit(130);
      }
      begin(signal);
    };
    process.on("SIGTERM", handler);
    process.on("SIGINT", handler);
    also?.(begin);
  });
}
