import { afterAll, beforeAll } from "vitest";
import { type Emulator, type EmulatorOptions, startEmulator } from "../../sandbox/analytics/index.ts";

/**
 * This test file's analytics emulator: started before its first test, closed after its last. The
 * object is filled in by that first hook, so read it in hooks and tests only.
 */
export function useEmulator(options: EmulatorOptions): Emulator {
  const emu = {} as Emulator;
  beforeAll(async () => {
    Object.assign(emu, await startEmulator(options));
  });
  afterAll(() => emu.close());
  return emu;
}
