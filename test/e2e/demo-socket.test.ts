import { describe, expect, it } from "vitest";
import { DEMO_HANG_MS, runDemo } from "./run-demo.ts";

/** `npm run demo -- --socket`: the same flows with the app on Socket Mode, plus the step, an unfurl and a refresh. */
describe("npm run demo -- --socket", () => {
  it(
    "plays over Socket Mode, runs the workflow step, unfurls a link, survives a refresh and exits 0",
    async () => {
      const { code, stdout, stderr } = await runDemo(["--socket"], "demo-socket-");
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toContain("Slack → app over Socket Mode");
      expect(stdout).toContain("Connection: Socket Mode");
      expect(stdout).toMatch(
        /Step outputs for the next steps \(checked against manifest\.yaml\): \{"message_ts":"\d+\.\d{6}"/,
      );
      expect(stdout).toContain("Unfurl of http://127.0.0.1:");
      expect(stdout).toMatch(/Connection #2 open/);
      expect(stdout).toMatch(/\d+ envelopes over Socket Mode, \d+ acked, none twice: true/);
      expect(stdout).toContain("Demo finished");
    },
    DEMO_HANG_MS + 10_000,
  );
});
