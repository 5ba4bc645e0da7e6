import WebSocket from "ws";

/**
 * A CPU profile of a window of a running process (started with `--inspect=127.0.0.1:<port>`), over
 * the DevTools protocol: start-up and warm-up stay out of it, only the load being measured is in.
 */
export async function attachProfiler(port: number) {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const url = list[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${port}`);
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  let next = 1;
  const waiting = new Map<number, (v: unknown) => void>();
  ws.on("message", (raw) => {
    const m = JSON.parse(String(raw)) as { id?: number; result?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  // 100 µs: fine enough for frames of a few microseconds each over thousands of requests.
  await send("Profiler.setSamplingInterval", { interval: 100 });
  return {
    start: () => send("Profiler.start"),
    async stop(): Promise<unknown> {
      const r = (await send("Profiler.stop")) as { profile: unknown };
      ws.close();
      return r.profile;
    },
  };
}
