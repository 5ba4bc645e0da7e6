import { describe, expect, it } from "vitest";
import type { SendResult } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { useFileStack, who } from "./helpers.ts";

/**
 * Socket Mode end to end: the real app opens its WebSocket through the stand-in's
 * apps.connections.open with the app-level token, and Slack (the stand-in) refreshes and cuts the
 * connection mid-session. The scenario files run over Socket Mode too (vitest.config.ts); this file
 * covers what only a WebSocket has: reconnects.
 */

const stack = useFileStack(`e2e-socket-${process.pid}`, {
  transport: "socket",
  unlimited: true,
  connect: true,
});

/** Sends `/insights help` and returns what the stand-in got back (ack or dispatch failure). */
const help = (userId: string = DEMO.member) => stack.slack.sendCommand({ ...who(userId), text: "help" });
const replies = (sent: SendResult) => stack.slack.responses(sent.responseUrl);

describe("Socket Mode", () => {
  it("connects with the app-level token: apps.connections.open, one WebSocket, hello, acks on it", async () => {
    const opens = stack.slack.calls({ method: "apps.connections.open" });
    expect(opens.length).toBeGreaterThanOrEqual(1);
    expect(opens.every((c) => c.ok)).toBe(true);
    const open = stack.slack.socketConnections().filter((c) => c.state === "open");
    expect(open).toHaveLength(1);
    const sent = await help();
    expect(sent.status).toBe(200);
    expect(sent.ackMs).toBeLessThan(3000);
    const envelope = stack.slack.envelopes().at(-1);
    expect(envelope).toMatchObject({ type: "slash_commands", acks: 1, outcome: "acked" });
    await stack.slack.waitFor(() => replies(sent)[0]);
  });

  it("a refresh mid-session loses and duplicates no command; a command in the gap fails visibly; events wait", async () => {
    const before = stack.slack.socketConnections().length;
    const first = await help();
    // The envelope of `racing` is on the wire before the disconnect: the app may ack it on the old
    // socket or find the socket closing; either way the person must get exactly one answer.
    const racing = help(DEMO.admin);
    expect(stack.slack.disconnectSocket("refresh_requested")).toBe(1);
    await stack.slack.waitFor(() => stack.slack.socketConnections().every((c) => c.state !== "open"));
    const gap = await help();
    expect(gap).toMatchObject({ status: 0, error: "dispatch_failed" });
    expect(stack.slack.dispatchFailures().at(-1)).toMatchObject({ type: "slash_commands" });
    // Slack keeps an event until a connection takes it, and says it is a retry.
    const homeEvent = stack.slack.sendEvent({
      teamId: DEMO.teamId,
      event: { type: "app_home_opened", user: DEMO.admin, channel: "D0ADMIN01", tab: "home" },
    });
    const reconnected = await stack.slack.waitForSocket(20_000);
    expect(reconnected.id).toBeGreaterThan(before);
    const after = [await help(), await help(DEMO.owner)];
    const eventResult = await homeEvent;
    expect(eventResult.status).toBe(200);
    const answered = [first, await racing, ...after];
    for (const sent of answered) await stack.slack.waitFor(() => replies(sent)[0], { timeoutMs: 10_000 });
    await stack.slack.waitFor(() => stack.slack.homeView(DEMO.admin));

    // Exactly one answer per command, none for the one Slack could not deliver.
    for (const sent of answered) expect(replies(sent)).toHaveLength(1);
    expect(replies(gap)).toHaveLength(0);
    // Every envelope went out once, on one connection, and was acked at most once.
    const envelopes = stack.slack.envelopes();
    expect(new Set(envelopes.map((e) => e.envelopeId)).size).toBe(envelopes.length);
    expect(envelopes.every((e) => e.acks <= 1)).toBe(true);
    const homeEnvelopes = envelopes.filter((e) => e.type === "events_api");
    expect(homeEnvelopes.at(-1)).toMatchObject({
      retryAttempt: 1,
      outcome: "acked",
      connectionId: reconnected.id,
    });
    const connections = stack.slack.socketConnections();
    const old = connections.find((c) => c.disconnects.includes("refresh_requested"));
    expect(old?.state).toBe("closed");
    expect(connections.filter((c) => c.state === "open")).toHaveLength(1);
  });

  it("after a network drop (no close handshake) the app reconnects and answers again", async () => {
    const before = stack.slack.socketConnections().filter((c) => c.state === "open")[0];
    stack.slack.dropSocket();
    await stack.slack.waitFor(() => stack.slack.socketConnections().every((c) => c.state === "closed"));
    const next = await stack.slack.waitForSocket(20_000);
    expect(next.id).not.toBe(before?.id);
    const sent = await help();
    expect(sent.status).toBe(200);
    await stack.slack.waitFor(() => replies(sent)[0]);
    expect(replies(sent)).toHaveLength(1);
  });
});
