import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  DEMO_API_KEY,
  type Emulator,
  rawHttp,
  SEED_INTROSPECTION_QUERY,
  seedPost,
} from "../../sandbox/analytics/index.ts";
import { run } from "../../sandbox/cli/emulator.ts";
import { freePort } from "../../sandbox/redis.ts";

function sink() {
  const chunks: string[] = [];
  return { write: (t: string) => chunks.push(t), text: () => chunks.join("") };
}

describe("emulator command in-process", () => {
  it("prints working URLs, the keys and a curl line with a single-line JSON body, then stops", async () => {
    const out = sink();
    let stop!: () => void;
    const stopped = new Promise<void>((r) => {
      stop = r;
    });
    let emu: Emulator | undefined;
    const done = run(["--port", "0", "--api-key", "cli-key"], {
      stdout: out,
      stderr: out,
      stop: stopped,
      onReady: (e) => (emu = e),
    });
    await expect.poll(() => emu).toBeDefined();
    const text = out.text();
    for (const url of [emu!.appUrl, emu!.graphqlUrl, emu!.configUrl]) expect(text).toContain(url);
    expect(text).toContain(DEMO_API_KEY);
    expect(text).toContain("cli-key");
    const curl = text.split("\n").find((l) => l.trim().startsWith("curl"))!;
    expect(curl).toContain(`-H 'Authorization: ApiKey ${DEMO_API_KEY}'`);
    const body = /--data '([^']+)'/.exec(curl)![1]!;
    const parsed = JSON.parse(body);
    expect(parsed.query).toMatch(/^query Insights\(\$from_day: Date/);
    const reply = await seedPost(emu!.graphqlUrl, parsed, { apiKey: "cli-key" });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).data.insights.dailyMetric).toHaveLength(7);
    stop();
    expect(await done).toBe(0);
    await expect(rawHttp(emu!.configUrl)).rejects.toThrow();
  });

  it("returns 2 with a clear message for bad flags", async () => {
    for (const args of [
      ["--port", "seventy"],
      ["--port"],
      ["--verbose"],
      ["--api-key", "two words"],
      ["--port", "70000"],
    ]) {
      const err = sink();
      expect(await run(args, { stdout: sink(), stderr: err, stop: Promise.resolve() }), args.join(" ")).toBe(
        2,
      );
      expect(err.text()).toMatch(/^insights-digest emulator: .+/);
    }
  });
});

describe("npx insights-digest emulator", () => {
  it("runs from the bin, serves on the given port and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const bin = fileURLToPath(new URL("../../bin/insights-digest.js", import.meta.url));
    const child = spawn(process.execPath, [bin, "emulator", "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 15_000 }).toContain("Press Ctrl+C to stop.");
      expect(output).toContain(`GraphQL URL: http://127.0.0.1:${port}/analytics/graphql`);
      const reply = await seedPost(
        `http://127.0.0.1:${port}/analytics/graphql`,
        { query: SEED_INTROSPECTION_QUERY },
        { apiKey: DEMO_API_KEY },
      );
      expect(reply.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(output).toContain("Emulator stopped.");
  });
});
