import { describe, expect, it } from "vitest";
import { parseEmulatorArgs } from "../../sandbox/cli/emulator.ts";

describe("parseEmulatorArgs", () => {
  it("defaults to port 4000 on 127.0.0.1 with no extra keys", () => {
    expect(parseEmulatorArgs([])).toEqual({ ok: true, args: { port: 4000, host: "127.0.0.1", apiKeys: [] } });
  });

  it("reads --port, --host and repeated --api-key, also in --flag=value form", () => {
    expect(parseEmulatorArgs(["--port", "4555", "--host=0.0.0.0", "--api-key", "a", "--api-key=b"])).toEqual({
      ok: true,
      args: { port: 4555, host: "0.0.0.0", apiKeys: ["a", "b"] },
    });
  });

  it.each([
    [["--port", "-1"], /--port must be/],
    [["--port", "1e3"], /--port must be/],
    [["--port", "65536"], /--port must be/],
    [["--port", "--api-key", "k"], /--port needs a value/],
    [["--api-key"], /--api-key needs a value/],
    [["--api-key", "a b"], /spaces/],
    [["-p", "4000"], /Unknown option "-p"/],
    [["extra"], /Unknown option "extra"/],
  ])("rejects %j", (argv, message) => {
    const parsed = parseEmulatorArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });
});
