import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_HANG_MS, runDemo } from "./run-demo.ts";

/** CI runs the demo exactly as a newcomer would: the CLI, no variables, its own Redis. */
describe("npm run demo", () => {
  it(
    "plays the flows, shows a digest, writes the output and exits 0",
    async () => {
      const { out, code, stdout, stderr } = await runDemo([], "demo-out-");
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toMatch(/Insights · \w{3} \d+ – \w{3} \d+, \d{4}/);
      expect(stdout).toContain("Findings");
      expect(stdout).toContain("Demo finished");
      expect(stdout).toContain("Scheduled digest as posted in #security");
      // The chart Slack draws, as the terminal shows it: titled bars for this and the previous period.
      expect(stdout).toContain("📈 Violations per day");
      expect(stdout).toContain("█ This period   ░ Previous period");
      expect(stdout).toMatch(/Breakdown +Asset group or scanner +Now +Before +Change/);
      expect(stdout).toContain("Scheduled digest after the fallback (chart: png_fallback)");
      expect(stdout).toContain("Scheduled digest · Weekly on Mon at 09:00 Europe/Berlin");
      expect(stdout).toMatch(/Next 5 runs \(Europe\/Berlin\)/);
      expect(stdout).toContain("Last delivered");
      // Emoji codes are drawn as Slack draws them, not printed as `:calendar:`.
      expect(stdout).toContain("📆 Next run");
      expect(stdout).not.toMatch(/:[a-z_]+:/);
      // The three emulator scenarios: each top driver is the planted one, and the outage is flagged.
      expect(stdout).toContain("Planted: group payments; top driver named: group payments (+");
      expect(stdout).toContain("Planted: scanner container; top driver named: scanner container (+");
      expect(stdout).toContain("Planted: scanner sca; top driver named: scanner sca (-");
      expect(stdout).toMatch(
        /No data from SCA \(dependencies\) since \w{3} \w{3} \d+ — possible scan outage\./,
      );
      expect(stdout).toContain("Why it changed");
      // The conversation in the Messages tab: understood lines, and examples for what it cannot read.
      expect(stdout).toContain("Understood: Why it changed: Violations · payments/*");
      expect(stdout).toContain("I could not read “critical”, “open”");
      // Less noise and export: a skipped run, an alert firing once and clearing once, a DM digest, a CSV.
      expect(stdout).toMatch(/skipped: violations [\d,]+ not > 1,000,000/);
      expect(stdout.match(/🚨 Alert: violations [\d,]+ > 500/g)).toHaveLength(1);
      expect(stdout.match(/✅ Cleared [\d-]+ [\d:]+ UTC: violations [\d,]+ not > 500/g)).toHaveLength(1);
      expect(stdout).toContain("Your personal digest · Daily at 08:00 America/Los_Angeles");
      // An unusual day: fired with what moved it, acknowledged (a member refused), snoozed, cleared.
      expect(stdout).toMatch(
        /🚨 Alert: violations [\d,]+ yesterday \(\w{3} \w{3} \d+\); a usual \w+day is [\d,]+–[\d,]+/,
      );
      expect(stdout).toMatch(
        /What moved it · \w{3} \w{3} \d+ against \w{3} \w{3} \d+ \([\d,]+ violations\), the most typical/,
      );
      expect(stdout).toMatch(/by asset group: payments\/\* \+[\d,]+/);
      expect(stdout).toContain("Only the owner of subscription");
      expect(stdout).toMatch(/👀 Acknowledged by /);
      expect(stdout).toMatch(/💤 Snoozed until it clears by /);
      expect(stdout).toMatch(/✅ Cleared .*: violations [\d,]+ yesterday .*, within a usual \w+day/);
      expect(stdout).toContain("This alert so far: 1 👍 · 0 👎");
      expect(stdout).toContain("day,findings,violations,fixes,merged");
      const files = readdirSync(out);
      expect(files.filter((f) => f.endsWith(".json")).length).toBeGreaterThanOrEqual(7);
      expect(files).toContain("scheduled-digest-chart.png");
      expect(files).toContain("trend-last30d.png");
      expect(files.some((f) => /^insights_\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.csv$/.test(f))).toBe(true);
      for (const kind of ["regression", "newScanner", "outage"])
        expect(files).toContain(`scenario-${kind}-last7d.png`);
      expect(readFileSync(join(out, "README.md"), "utf8")).toContain("block-kit-builder");
      expect(existsSync(join(out, "trend-last30d.png"))).toBe(true);
    },
    DEMO_HANG_MS + 10_000,
  );
});
