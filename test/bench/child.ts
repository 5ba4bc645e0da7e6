import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Bench helpers run in child processes (their own event loop and CPU share, killable with a signal)
 * and are driven over Node's IPC channel: one request, one reply, matched by id.
 */

type Handler = (args: never) => unknown;
interface Request {
  id: number;
  method: string;
  args: unknown;
}
interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface Child {
  readonly pid: number;
  call<T>(method: string, args?: unknown): Promise<T>;
  /** Resolves when the process has exited (with its code or signal). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  process: ChildProcess;
}

/**
 * Node flags for every process the bench starts: BENCH_CHILD_FLAGS="--trace-gc" (say), which
 * NODE_OPTIONS refuses for some flags; a preload (`--import ./test/bench/heap-sample.mjs`) too.
 */
export function benchChildFlags(): string[] {
  return process.env.BENCH_CHILD_FLAGS?.split(" ").filter(Boolean) ?? [];
}

/**
 * Starts `file` (a .ts module next to this one, or an absolute path) under tsx with an IPC channel;
 * `nodeFlags` first (a deployed process type's, from the Procfile).
 */
export function spawnChild(
  file: string | URL,
  env: Record<string, string> = {},
  nodeFlags: readonly string[] = [],
): Child {
  const path = file instanceof URL ? fileURLToPath(file) : file;
  // BENCH_PROFILE_CHILDREN=1 writes a CPU profile per child into /tmp/bench-prof (for finding what limits a run).
  const profile = process.env.BENCH_PROFILE_CHILDREN ? ["--cpu-prof", "--cpu-prof-dir=/tmp/bench-prof"] : [];
  const proc = spawn(
    process.execPath,
    [...nodeFlags, ...profile, ...benchChildFlags(), "--import", "tsx", path],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, ...env },
    },
  );
  let next = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  proc.on("message", (m: Reply) => {
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.ok) w.resolve(m.value);
    else w.reject(new Error(m.error ?? "child error"));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once("exit", (code, signal) => {
      for (const w of waiting.values()) w.reject(new Error(`child ${path} exited (${signal ?? code})`));
      waiting.clear();
      resolve({ code, signal });
    });
  });
  return {
    pid: proc.pid ?? 0,
    process: proc,
    exited,
    call<T>(method: string, args?: unknown): Promise<T> {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        proc.send({ id, method, args } satisfies Request, (err) => {
          if (err) {
            waiting.delete(id);
            reject(err);
          }
        });
      });
    },
    async kill(signal: NodeJS.Signals = "SIGTERM") {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill(signal);
      await exited;
    },
  };
}

/** The child's side: answers requests with `handlers[method](args)`; exits when the parent goes away. */
export function serveRpc(handlers: Record<string, Handler>): void {
  process.on("message", async (m: Request) => {
    const handler = handlers[m.method];
    let reply: Reply;
    try {
      if (!handler) throw new Error(`no method ${m.method}`);
      reply = { id: m.id, ok: true, value: await handler(m.args as never) };
    } catch (err) {
      reply = { id: m.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    process.send?.(reply);
  });
  process.on("disconnect", () => process.exit(0));
  // An orderly exit on SIGTERM, so --cpu-prof gets written; SIGKILL stays a crash.
  process.on("SIGTERM", () => process.exit(0));
}
