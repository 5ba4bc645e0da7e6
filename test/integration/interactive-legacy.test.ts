import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import { drainLegacyQueue } from "../../src/interactive/legacy.ts";
import type { InteractiveJob } from "../../src/interactive/types.ts";
import { silentLogger } from "../../src/log.ts";
import { fromLegacyJob } from "../../src/slack/frame/offload.ts";
import { legacyClick as legacyJob } from "../fixtures/legacy-job.ts";
import { backends, useRedis } from "../setup/backends.ts";

const URL = "https://hooks.slack.com/actions/T1/1/legacy-secret";

const legacyClick = (id: string) => legacyJob(id, URL);

const until = async (what: string, check: () => Promise<boolean>) => {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
    if (await check()) return;
  throw new Error(`timed out waiting for ${what}`);
};

describe.each(backends())(
  "the previous version's interactive queue, drained after an upgrade ($name)",
  ({ url }) => {
    const queues: Queue[] = [];
    const redis = useRedis(url, () => Promise.all(queues.map((q) => q.close())));

    it("a queued request is run and removed; one that fails for the last time is kept without its response_url", async () => {
      const prefix = `{legacy-${randomUUID().slice(0, 8)}}`;
      const queue = new Queue("interactive", { connection: redis, prefix });
      queues.push(queue);
      const ran: InteractiveJob[] = [];
      const drain = drainLegacyQueue({
        connection: redis,
        prefix,
        concurrency: 2,
        logger: silentLogger(),
        convert: fromLegacyJob,
        async run(job) {
          ran.push(job);
          if (job.id === "fails") throw new Error("the analytics service is down");
          return { id: job.id, kind: job.route.kind, name: "digest_range_last30d", outcome: "ok" };
        },
      });
      try {
        await queue.add("r", legacyClick("runs"), { jobId: "runs", removeOnComplete: { count: 0 } });
        await queue.add("r", legacyClick("fails"), { jobId: "fails", attempts: 1 });
        // Both run at once: the failure can be recorded before the other's completion removes it.
        await until(
          "the failure recorded and the completed job removed",
          async () => (await queue.getFailedCount()) === 1 && (await queue.getJob("runs")) === undefined,
        );
        expect(ran.map((j) => j.id).sort()).toEqual(["fails", "runs"]);
        // Each ran with its response_url: it is what the answer goes to.
        expect(ran.every((j) => j.responseUrl === URL)).toBe(true);
        await until("the failed job's response_url dropped", async () => {
          const failed = await queue.getJob("fails");
          return failed !== undefined && !JSON.stringify(failed.data).includes(URL);
        });
        // Kept for diagnosis: its ids and what was clicked, not the url.
        const kept = (await queue.getJob("fails"))?.data as ReturnType<typeof legacyClick>;
        expect(kept).toMatchObject({ id: "fails", userId: "U1", route: { id: "digest_range_last30d" } });
        expect(kept.body).not.toHaveProperty("response_url");
      } finally {
        await drain.close();
      }
    });
  },
);
