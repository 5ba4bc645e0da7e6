import { afterEach, describe, expect, it } from "vitest";
import { DEMO } from "../../sandbox/stack.ts";
import { streamKey } from "../../src/interactive/stream.ts";
import { repliesIn, shownText } from "./ask-helpers.ts";
import { useFileStack } from "./helpers.ts";
import { spawnWorker, type WorkerProcess } from "./interactive-helpers.ts";

/**
 * Questions under the slash command's access rules, with the work where the Procfile puts it: the
 * web process acks and hands every question off; a worker process checks who asks, reads and
 * answers. Digests are for admins here (DIGEST_ACCESS=admins).
 */
const workers: WorkerProcess[] = [];
const stack = useFileStack(`e2e-ask-access-${process.pid}`, {
  interactive: "queue",
  connect: true,
  env: { DIGEST_ACCESS: "admins" },
});
afterEach(async () => {
  for (const w of workers.splice(0)) {
    w.child.kill("SIGKILL");
    await w.exited;
  }
});

const streamed = () => streamKey(stack.config.queuePrefix, stack.interactiveQueue);
/** The hand-off stream's entries, as jobs. */
const waitingJobs = async () =>
  (await stack.redis.xrange(streamed(), "-", "+")).map(
    ([, fields]) =>
      JSON.parse(fields[1] as string) as { route: { kind: string; id: string }; message?: unknown },
  );
const startWorker = async () => {
  const worker = await spawnWorker(stack, {});
  workers.push(worker);
  return worker;
};

const REFUSAL = "Digests are limited to workspace admins in this workspace.";

describe("who may ask", () => {
  it("a member's DM is refused in its thread by the worker process that took it", async () => {
    const worker = await startWorker();
    const posted = await stack.slack.sendDm({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      text: "how are we doing",
    });
    expect(posted.delivered?.status).toBe(200);
    const reply = await stack.slack.waitFor(() => repliesIn(stack, posted.channelId, posted.ts)[0]);
    expect(shownText(reply)).toContain(REFUSAL);
    const refused = await stack.slack.waitFor(() =>
      worker.lines.find((l) => l.message === "message" && l.code === "forbidden"),
    );
    expect(refused.pid).toBe(worker.child.pid);
    // Refused or answered, the request leaves the stream once it is done.
    await stack.slack.waitFor(async () => ((await stack.redis.xlen(streamed())) === 0 ? true : undefined));
  });

  it("a member's mention in a channel is refused to them alone (ephemeral, in the thread)", async () => {
    await startWorker();
    const posted = await stack.slack.mention({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: DEMO.general,
      text: `<@${DEMO.botUserId}> how are we doing`,
    });
    const refusal = await stack.slack.waitFor(() =>
      stack.slack.ephemerals(DEMO.member).find((e) => JSON.stringify(e.blocks).includes(REFUSAL)),
    );
    expect(refusal.channelId).toBe(DEMO.general);
    const call = stack.slack.calls({ method: "chat.postEphemeral" }).at(-1);
    expect(call?.args.thread_ts).toBe(posted.ts);
    expect(repliesIn(stack, DEMO.general, posted.ts)).toEqual([]);
    // Done before its worker goes (afterEach kills it): a refusal still pending would be the next test's.
    await stack.slack.waitFor(async () => ((await stack.redis.xlen(streamed())) === 0 ? true : undefined));
  });

  it("an admin's question waits in the hand-off stream until a worker process reads and answers it, then leaves Redis", async () => {
    const q = "why did findings change in platform last month";
    const posted = await stack.slack.sendDm({ teamId: DEMO.teamId, userId: DEMO.admin, text: q });
    expect(posted.delivered?.status).toBe(200);
    expect(posted.delivered?.ackMs).toBeLessThan(3_000);
    const waiting = await stack.slack.waitFor(async () => {
      const jobs = await waitingJobs();
      return jobs.length === 1 ? jobs[0] : undefined;
    });
    expect(waiting?.route).toEqual({ kind: "message", id: "message" });
    expect(repliesIn(stack, posted.channelId, posted.ts)).toEqual([]);

    const worker = await startWorker();
    const reply = await stack.slack.waitFor(() => repliesIn(stack, posted.channelId, posted.ts)[0], {
      timeoutMs: 20_000,
    });
    expect(shownText(reply)).toContain("Why it changed: Findings · platform/*");
    const answered = await stack.slack.waitFor(() => worker.lines.find((l) => l.msg === "question answered"));
    expect(answered.pid).toBe(worker.child.pid);
    expect(answered.pid).not.toBe(process.pid);
    // The question's words were the job's; the finished request is deleted, not kept as history.
    await stack.slack.waitFor(async () => ((await stack.redis.xlen(streamed())) === 0 ? true : undefined));
    expect(JSON.stringify(worker.lines).toLowerCase()).not.toContain(q);
  });
});
