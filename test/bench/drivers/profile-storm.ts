import { scheduledExtras } from "../../../src/digests/scheduled.ts";
import { inParallel } from "../storm/world.ts";
import { accountKey, buildDriversWorld } from "./world.ts";

/**
 * A focused profile target (`node --cpu-prof --import tsx test/bench/drivers/profile-storm.ts [drivers]`):
 * scheduled-style digests of 20 accounts × 10 ranges each, 50 at once, with or without drivers,
 * against the emulator in a child process (its CPU is not in the profile). Prints CPU ms per digest (this process's and the emulator's), requests and KiB received.
 */
const withDrivers = process.argv[2] !== "plain";
const batchSize = Number(process.argv[3] ?? 32);
const accounts = 20;
const w = await buildDriversWorld(accounts, 0, false);
try {
  const keys = Array.from({ length: accounts }, (_, i) => ({
    ref: { teamId: `TPROF${String(i).padStart(4, "0")}` },
    apiKey: accountKey(i),
  }));
  const { digests } = await w.service(keys, { batchSize });
  const items = keys.flatMap((k) => Array.from({ length: 10 }, (_, j) => ({ k, range: `last${7 + j}d` })));
  const before = await w.requests();
  const bytesBefore = await w.bytes();
  const emulatorBefore = await w.emulatorCpuMs();
  const cpu = process.cpuUsage();
  const t = performance.now();
  await inParallel(items, 50, async ({ k, range }) => {
    await digests.build({
      ref: k.ref,
      range,
      tz: "UTC",
      now: new Date(),
      ...scheduledExtras({ drivers: withDrivers, chart: "off" }),
    });
  });
  const used = process.cpuUsage(cpu);
  process.stdout.write(
    `${withDrivers ? `drivers (batch ${batchSize})` : "plain"}: ${items.length} digests, ${((used.user + used.system) / 1000 / items.length).toFixed(2)} ms CPU each, ${Math.round(performance.now() - t)} ms wall, ${(await w.requests()) - before} requests, ${(((await w.bytes()) - bytesBefore) / 1024 / items.length).toFixed(1)} KiB received and ${(((await w.emulatorCpuMs()) - emulatorBefore) / items.length).toFixed(2)} ms of the emulator's CPU per digest\n`,
  );
} finally {
  await w.close();
}
