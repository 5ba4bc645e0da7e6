import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createDeliveryQueue, type DeliveryQueue } from "../../src/jobs/queue.ts";
import { createSchedulerSync } from "../../src/jobs/scheduler.ts";
import { silentLogger } from "../../src/log.ts";

let redis: Redis;
let queue: DeliveryQueue;

beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: 2 });
  queue = createDeliveryQueue({
    connection: redis,
    prefix: "{t-sched-ids}",
    name: `ids-${process.pid}`,
    logger: silentLogger(),
  });
});
afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  await redis.quit();
});

describe("one-off delivery jobs", () => {
  it("two catch-ups, test sends or notices added in the same millisecond are two jobs, not one", async () => {
    const sync = createSchedulerSync({ queue, policy: { attempts: 1, backoffMs: 10 } });
    const ref = { teamId: "T0SAMEMS1" };
    const now = vi.spyOn(Date, "now").mockReturnValue(1_800_000_000_000);
    try {
      const a = await sync.enqueue(ref, "abcd1234", "C0SAME001", "catchUp", "20261102T080000Z");
      const b = await sync.enqueue(ref, "abcd1234", "C0SAME001", "catchUp", "20261102T080000Z");
      await sync.enqueue(ref, "abcd1234", "C0SAME001", "test", "send-x");
      await sync.enqueue(ref, "abcd1234", "C0SAME001", "test", "send-x");
      await sync.notifyOwner(ref, "abcd1234", "is_archived");
      await sync.notifyOwner(ref, "abcd1234", "is_archived");
      expect(a).not.toBe(b);
    } finally {
      now.mockRestore();
    }
    expect(await queue.getJobCountByTypes("waiting")).toBe(6);
  });
});
