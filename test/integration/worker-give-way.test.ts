import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { capturingLogger } from "../../sandbox/stack.ts";
import { createStreamExecutor } from "../../src/interactive/queue.ts";
import { requestOf } from "../../src/slack/frame/offload.ts";
import { type Harness, OWNER, REF, startHarness } from "./worker-harness.ts";

/**
 * Issue 62: during a slot, the requests people wait on ran on the worker's event loop behind the
 * deliveries' callbacks, each step a turn late, and the hand-off stream's backlog grew for the whole
 * slot. A delivery now waits to start while such a request runs here on a late loop. The loop is made
 * late here by the test itself (a slot's deliveries do it in production), and the request is held at
 * its answer, so what is asserted is the order: the delivery taken meanwhile waits, and posts only
 * after the request is answered.
 */

let h: Harness | undefined;
let server: Server | undefined;
let spinning = false;
afterEach(async () => {
  spinning = false;
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  await h?.close();
  h = undefined;
});

const until = async (check: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Keeps this process's loop busy 150 ms of every turn, as a slot's deliveries keep a worker's. */
function spin() {
  spinning = true;
  const turn = () => {
    if (!spinning) return;
    const end = Date.now() + 150;
    while (Date.now() < end) {
      // busy on purpose
    }
    setImmediate(turn);
  };
  setImmediate(turn);
}

/** A response_url that holds each answer until `release()`; `answered` counts the answers released. */
async function heldResponseUrl() {
  const held: ServerResponse[] = [];
  const got: unknown[] = [];
  const state = { answered: 0 };
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (c: Buffer) => {
      raw += c.toString();
    });
    req.on("end", () => {
      got.push(JSON.parse(raw));
      held.push(res);
    });
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/commands/1`,
    got,
    state,
    release() {
      for (const res of held.splice(0)) {
        state.answered++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"ok":true}');
      }
    },
  };
}

describe("deliveries give way to the requests people wait on", () => {
  it("a delivery taken while a request runs on a late loop waits, and posts after the request is answered", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    harness.slack.setRateLimit({ enabled: false });
    const queueName = `interactive-${harness.queueName}`;
    const log = capturingLogger("debug");
    // No floor within the test: that a congested worker still delivers is not what is tested here.
    await harness.worker({ logger: log.logger, interactive: { queueName }, giveWay: { floorMs: 600_000 } });
    const { subscriptions } = harness.producer();
    const sub = await subscriptions.create(
      REF,
      { schedule: { kind: "daily" }, tz: "UTC", range: "last7d", channelId: DEMO.general, drivers: false },
      OWNER,
    );
    const answer = await heldResponseUrl();
    const executor = createStreamExecutor({
      connection: harness.redis,
      prefix: harness.config.queuePrefix,
      name: queueName,
    });
    const body = {
      command: "/insights",
      text: "last7d",
      response_url: answer.url,
      user_id: OWNER,
      team_id: DEMO.teamId,
      channel_id: DEMO.general,
      channel_name: "general",
    };
    await executor.submit(
      requestOf({ kind: "command", name: "digest" }, body, Date.now(), { teamId: DEMO.teamId }),
    );
    // The request has its answer ready and is held posting it: it runs until released.
    await until(() => answer.got.length > 0, 20_000, "the request's answer");

    spin();
    await subscriptions.sendNow(REF, sub.subscription.id);
    const givesWay = () => log.lines.some((l) => l.includes("a delivery gives way"));
    await until(givesWay, 20_000, "the delivery to give way");
    // It was taken and waits: nothing posted while the request is unanswered.
    expect(harness.slack.messages(DEMO.general)).toEqual([]);
    expect(answer.state.answered).toBe(0);

    spinning = false;
    answer.release();
    await until(() => harness.slack.messages(DEMO.general).length > 0, 20_000, "the delivery");
    expect(answer.state.answered).toBe(1);
    await executor.close();
  });
});
