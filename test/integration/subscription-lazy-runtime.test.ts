import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createLazySubscriptionRuntime } from "../../src/jobs/subscription-wiring.ts";
import { silentLogger } from "../../src/log.ts";
import { slotFor, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import { quietRuntime } from "../fixtures/runtime.ts";
import { backends, useRedis } from "../setup/backends.ts";

/**
 * A digest thread's subscription service opens its delivery queue (and loads BullMQ) only when a
 * request first writes a scheduler or enqueues a job: the same records, slots and schedulers as the
 * web's eager one, from a thread that started without BullMQ.
 */
const A = { teamId: "T0LAZYA01" };
const OWNER = "U0ADMIN01";
const weekly = {
  channelId: "C0GENERAL",
  schedule: { kind: "weekly" as const, days: ["mon" as const] },
  tz: "UTC",
};
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("a lazy subscription runtime, loaded alone", () => {
  it("brings no BullMQ module with it", () => {
    // A fresh process that imports only the module, then lists the CommonJS modules it loaded (BullMQ
    // ships CommonJS); the eager runtime's module, checked the same way, does load it.
    const loaded = (module: string) => {
      const code = `await import(${JSON.stringify(`./src/jobs/${module}`)});
        const { createRequire } = await import("node:module");
        const cache = createRequire(import.meta.url).cache;
        console.log(Object.keys(cache).filter((p) => p.includes("/bullmq/")).length);`;
      const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
        cwd: ROOT,
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      return Number(run.stdout.trim());
    };
    expect(loaded("subscription-wiring.ts")).toBe(0);
    expect(loaded("runtime.ts")).toBeGreaterThan(0);
  });
});

describe.each(backends())("a lazy subscription runtime ($name)", ({ url }) => {
  const redis = useRedis(url);

  function pair() {
    const id = randomUUID().slice(0, 8);
    const o = { queuePrefix: "{insights}", prefix: `t-lazy-${id}`, queueName: `lazy-${id}` };
    return {
      lazy: createLazySubscriptionRuntime({ redis, logger: silentLogger(), ...o }),
      eager: quietRuntime(redis, o),
    };
  }

  it("closes without ever opening a queue, and reads subscriptions without one", async () => {
    const { lazy, eager } = pair();
    const { subscription } = await eager.subscriptions.create(A, weekly, OWNER);
    expect(await lazy.subscriptions.get(A, subscription.id)).toEqual(subscription);
    await lazy.close();
    await eager.close();
  });

  it("writes the slot's scheduler and enqueues a send as the eager one does, its queue opened once", async () => {
    const { lazy, eager } = pair();
    const slot = slotFor("0 9 * * 1", "UTC");
    // Two first calls at once share the one queue they open.
    const [a, b] = await Promise.all([
      lazy.subscriptions.create(A, weekly, OWNER),
      lazy.subscriptions.create(A, { ...weekly, channelId: "C0SECOND1" }, OWNER),
    ]);
    const scheduler = await eager.queue.getJobScheduler(slotSchedulerId(slot.id));
    expect(scheduler).toMatchObject({ pattern: "0 9 * * 1", tz: "UTC", name: "slot" });
    expect(scheduler?.next).toBe(a.nextRuns[0]?.getTime());
    expect(b.subscription.channelId).toBe("C0SECOND1");
    const { jobId } = await lazy.subscriptions.sendNow(A, a.subscription.id);
    expect((await eager.queue.getJob(jobId))?.data).toMatchObject({ ch: "C0GENERAL" });
    await lazy.close();
    await eager.close();
  });
});
