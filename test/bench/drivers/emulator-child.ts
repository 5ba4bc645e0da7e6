import { type Emulator, startEmulator } from "../../../sandbox/analytics/index.ts";
import { serveRpc } from "../child.ts";

/**
 * The analytics emulator in its own process for the drivers bench, so its CPU (366-day windows over
 * thousands of assets) is not counted in the digest times measured in the bench process.
 */

export interface EmulatorChildStart {
  accounts: { apiKey: string; assetCount?: number }[];
  latencyMs: number;
}

let emulator: Emulator | undefined;

if (process.send) {
  serveRpc({
    async start(o: EmulatorChildStart) {
      emulator = await startEmulator({ accounts: o.accounts });
      emulator.setRates({ latencyMs: o.latencyMs });
      return { graphqlUrl: emulator.graphqlUrl };
    },
    setLatency: (ms: number) => emulator?.setRates({ latencyMs: ms }),
    requests: () => emulator?.requestCount() ?? 0,
    /** Reply bytes the emulator has sent so far, every operation. */
    bytes: () => Object.values(emulator?.byOperation() ?? {}).reduce((sum, o) => sum + o.bytes, 0),
    /** CPU time of this process so far, ms (user + system). */
    cpuMs: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    },
    async close() {
      await emulator?.close();
    },
  });
}
