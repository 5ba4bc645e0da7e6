import { AppError } from "../errors.ts";

const timer = (ms: number) =>
  new Promise<"late">((resolve) => {
    setTimeout(() => resolve("late"), ms).unref();
  });

/**
 * A stop that ends within `ms`: `graceful` (finish jobs in flight, close connections) gets that long;
 * if it has not finished by then (Redis died, and a connection that retries for ever waits for it;
 * a job hangs), `force` drops every connection without waiting for an answer, and the stop rejects
 * with `shutdown_timeout`, so the process exits non-zero instead of never. Each force step gets a
 * second of its own.
 */
export async function closeWithin(
  ms: number,
  graceful: () => Promise<void>,
  force: (() => Promise<unknown> | unknown)[],
): Promise<void> {
  const outcome = await Promise.race([graceful().then(() => "done" as const), timer(ms)]);
  if (outcome === "done") return;
  await Promise.all(
    force.map((step) =>
      Promise.race([
        Promise.resolve()
          .then(step)
          .catch(() => undefined),
        timer(1_000),
      ]),
    ),
  );
  throw new AppError(
    "shutdown_timeout",
    `Stopped without finishing: Redis or a job in flight did not answer within ${ms / 1000} s (SHUTDOWN_TIMEOUT_MS); another worker takes its jobs over.`,
  );
}
