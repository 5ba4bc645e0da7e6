import { planFor } from "../plan.ts";
import { runStorm, withFreshWorld } from "./storm.ts";
import { buildWorld } from "./world.ts";

/** The shape of one storm run on its own (the quick bench's first storm by default). */
export interface OneStorm {
  subscriptions: number;
  workspaces: number;
  /** Subscriptions per channel. */
  perChannel: number;
  drivers: boolean;
  charts: "on" | "off";
  /** Every workspace with the same API key. */
  oneKey: boolean;
}

const QUICK = planFor(true);
const first = QUICK.storms[0] as (typeof QUICK.storms)[number];

/** The quick bench's first storm, with drivers on and charts off. */
export const FIRST_STORM: OneStorm = {
  subscriptions: first.subscriptions,
  workspaces: first.workspaces,
  perChannel: first.subsPerChannel,
  drivers: true,
  charts: "off",
  oneKey: false,
};

/**
 * One storm in a fresh world, without its bare loop, with the analytics emulator's requests and bytes
 * per GraphQL operation: what the worker's profiles and its CPU pairs measure.
 */
export async function oneStorm(shape: OneStorm) {
  const perWorkspace = Math.ceil(shape.subscriptions / shape.workspaces);
  return withFreshWorld(
    () =>
      buildWorld(
        {
          subscriptions: shape.subscriptions,
          workspaces: shape.workspaces,
          latencyMs: 100,
          channelsPerWorkspace: Math.max(1, Math.ceil(perWorkspace / shape.perChannel)),
          drivers: shape.drivers,
          oneKey: shape.oneKey,
        },
        { WORKER_CONCURRENCY: String(QUICK.concurrency), CHARTS: shape.charts },
      ),
    async (world) => {
      const storm = await runStorm({
        world,
        worker: { prefix: world.prefix, queueName: world.queueName },
        timeoutMs: 240_000,
      });
      const byOperation =
        await world.services.call<Record<string, { requests: number; bytes: number }>>("emulatorByOperation");
      return { ...storm, byOperation };
    },
  );
}
